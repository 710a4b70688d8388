import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { transferTargets } from "../router/transfer-targets.js";
import { formatAgentNames } from "../transfer/transfer-instruction.js";
import type { BaseAgent } from "./base-agent.js";
import type { InvocationContext } from "./invocation-context.js";

/**
 * The one hand-off every agent kind uses after a transfer (ADK-SEMANTICS §3.4): runs `target` in the
 * same invocation and yields its events. Call it right after yielding the function-response event that
 * carries `actions.transferToAgent`; the runner has stored that event by the time the agent resumes, so
 * a committed transfer is never lost even if the target fails. Anything else is a bug in the agent kind,
 * reported with a code, never skipped: `TRANSFER_TARGET_NOT_FOUND` for an agent that is not one of the
 * caller's transfer targets, `TRANSFER_NOT_STORED` when the last stored event is not that transfer.
 *
 * @param target the agent `resolveTransfer(agent, name)` gave: a transfer target of the caller.
 * @example
 * const transfer = resolveTransfer(this, "billing");
 * if (transfer.kind === "transfer") {
 *   yield ctx.newEvent({ content: { role: "model", parts: [transferCallPart(id, "billing")] } });
 *   yield ctx.newEvent({ content: { role: "user", parts: [transferResponsePart(id)] },
 *     actions: { transferToAgent: "billing" } });
 *   yield* handOff(ctx, transfer.target);
 * }
 */
export async function* handOff(ctx: InvocationContext, target: BaseAgent): AsyncGenerator<Event> {
  const targets = transferTargets(ctx.agent);
  if (!targets.includes(target)) {
    throw new BatonError(
      "TRANSFER_TARGET_NOT_FOUND",
      `Agent "${target.name}" is not a transfer target of "${ctx.agent.name}"; its targets: ` +
        `${formatAgentNames(targets) || "none"}.`,
    );
  }
  // The caller's newest stored event of this invocation (a parallel branch may have stored others since).
  const stored = ctx.events.findLast(
    (e) => e.invocationId === ctx.invocationId && e.author === ctx.agent.name && e.branch === ctx.branch,
  );
  const named = stored?.actions.transferToAgent;
  if (named !== target.name) {
    const found = named === undefined ? "no transfer" : `a transfer to "${named}"`;
    throw new BatonError(
      "TRANSFER_NOT_STORED",
      `Agent "${ctx.agent.name}" handed off to "${target.name}", but its last stored event carries ${found}: ` +
        "yield the function response with actions.transferToAgent before calling handOff.",
    );
  }
  yield* target.runAsync(ctx);
}
