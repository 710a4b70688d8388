import type { InvocationContext } from "../../agents/invocation-context.js";
import { ATTR, type OpenSpan, type SpanAttributes } from "../../core/trace.js";
import type { ChosenInterface } from "./choose-interface.js";
import type { ResponseItem } from "./response-item.js";

/** The `send_message <agent>` span of one A2A call, under the remote agent's `invoke_agent` span. */
export function startCallSpan(
  ctx: InvocationContext,
  agentName: string,
  chosen: ChosenInterface,
  streaming: boolean,
): OpenSpan {
  return ctx.recorder.start(
    `send_message ${agentName}`,
    {
      [ATTR.operation]: "send_message",
      [ATTR.agentName]: agentName,
      [ATTR.invocationId]: ctx.invocationId,
      [ATTR.sessionId]: ctx.session.id,
      "baton.a2a.url": chosen.url,
      "baton.a2a.binding": chosen.binding,
      "baton.a2a.protocol_version": chosen.protocolVersion,
      "baton.a2a.streaming": streaming,
    },
    ctx.span,
  );
}

/** What the peer's last reply said: the task and its state, or that it answered with a message. */
export function replyAttributes(last: ResponseItem | undefined): SpanAttributes {
  if (last === undefined) return {};
  if (last.kind === "message") return { "baton.a2a.reply": "message" };
  return { "baton.a2a.task_id": last.task.id, "baton.a2a.task_state": last.task.status.state };
}
