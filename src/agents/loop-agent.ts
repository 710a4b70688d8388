import type { Event } from "../core/event.js";
import type { SharedScope } from "../core/state.js";
import { BaseAgent, type BaseAgentConfig } from "./base-agent.js";
import type { InvocationContext } from "./invocation-context.js";

export interface LoopAgentConfig extends BaseAgentConfig {
  /** Rounds over the sub-agents at most; unset or 0 loops until a sub-agent escalates (as ADK). */
  maxIterations?: number;
}

/**
 * Runs its sub-agents in order, round after round, until an event carries `actions.escalate` (the
 * `exit_loop` tool sets it) or `maxIterations` rounds are done (ADK `LoopAgent`). As in ADK, the
 * sub-agent that escalated finishes its own run first; the remaining sub-agents of the round are skipped.
 * @example
 * const refine = new LoopAgent({ name: "refine", maxIterations: 3, subAgents: [draft, critic] });
 */
export class LoopAgent extends BaseAgent {
  readonly transferPolicy = undefined;
  readonly maxIterations: number | undefined;

  constructor(config: LoopAgentConfig) {
    super(config);
    const max = config.maxIterations;
    if (max !== undefined && (!Number.isInteger(max) || max < 0)) {
      throw new TypeError(
        `LoopAgent "${config.name}": maxIterations must be a whole number ≥ 0, got ${max}.`,
      );
    }
    this.maxIterations = max === 0 ? undefined : max;
  }

  /** Only its agent callbacks can touch state: the body just runs the sub-agents. */
  override sharedScopes(): readonly SharedScope[] {
    return this.runsBody(LoopAgent.prototype.runImpl) ? this.callbackScopes() : super.sharedScopes();
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    if (this.subAgents.length === 0) return; // nothing could ever escalate
    for (let round = 0; this.maxIterations === undefined || round < this.maxIterations; round++) {
      for (const sub of this.subAgents) {
        let escalated = false;
        for await (const event of sub.runAsync(ctx)) {
          yield event;
          if (event.actions.escalate) escalated = true;
        }
        if (escalated) return;
      }
    }
  }
}
