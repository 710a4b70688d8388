import type { Event } from "../core/event.js";
import type { SharedScope } from "../core/state.js";
import { BaseAgent, type BaseAgentConfig } from "./base-agent.js";
import type { InvocationContext } from "./invocation-context.js";
import { mergeRuns } from "./merge-runs.js";

/** ADK's ParallelAgent takes only the base fields. */
export type ParallelAgentConfig = BaseAgentConfig;

/**
 * Runs its sub-agents concurrently, each on its own branch `<branch>.<parent>.<child>` (ADK names it so),
 * and yields their events as they come. A sub-agent's history shows only events of its own branch and
 * of the branches above it, never its siblings' (ADK `ParallelAgent`). A failing sub-agent ends the
 * whole run; the error event is authored by it.
 * @example
 * const research = new ParallelAgent({ name: "research", subAgents: [web, papers] });
 */
export class ParallelAgent extends BaseAgent {
  readonly transferPolicy = undefined;

  /** Only its agent callbacks can touch state: the body just runs the sub-agents. */
  override sharedScopes(): readonly SharedScope[] {
    return this.runsBody(ParallelAgent.prototype.runImpl) ? this.callbackScopes() : super.sharedScopes();
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    const runs = this.subAgents.map((sub) => {
      const own = `${this.name}.${sub.name}`;
      return sub.runAsync(ctx.onBranch(ctx.branch ? `${ctx.branch}.${own}` : own));
    });
    yield* mergeRuns(runs);
  }
}
