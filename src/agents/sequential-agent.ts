import type { Event } from "../core/event.js";
import type { SharedScope } from "../core/state.js";
import { BaseAgent, type BaseAgentConfig } from "./base-agent.js";
import type { InvocationContext } from "./invocation-context.js";

/** ADK's SequentialAgent takes only the base fields. */
export type SequentialAgentConfig = BaseAgentConfig;

/**
 * Runs its sub-agents one after another in the same invocation and on the same branch, so each sees
 * what the earlier ones said and wrote to state (ADK `SequentialAgent`). It never transfers and is
 * never sticky: the next turn goes to the nearest LLM agent above it (ADK-SEMANTICS §2.1).
 * @example
 * const pipeline = new SequentialAgent({ name: "pipeline", subAgents: [writer, reviewer] });
 */
export class SequentialAgent extends BaseAgent {
  readonly transferPolicy = undefined;

  /** Only its agent callbacks can touch state: the body just runs the sub-agents. */
  override sharedScopes(): readonly SharedScope[] {
    return this.runsBody(SequentialAgent.prototype.runImpl) ? this.callbackScopes() : super.sharedScopes();
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    for (const sub of this.subAgents) yield* sub.runAsync(ctx);
  }
}
