import type { InvocationContext } from "../agents/invocation-context.js";
import { AgentFailure } from "../core/errors.js";
import type { Event } from "../core/event.js";

/** Temporary: replaced by the seams' shared hand-off in agents/ when it lands. */
export async function* handOff(ctx: InvocationContext, transfer: Event): AsyncGenerator<Event> {
  const name = transfer.actions.transferToAgent;
  const target = name ? ctx.rootAgent.findAgent(name) : undefined;
  if (!target) throw new AgentFailure("AGENT_ERROR", `Transfer target "${name}" is not in the agent tree.`);
  yield* target.runAsync(ctx);
}
