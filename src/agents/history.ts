import type { Content, Part } from "../core/content.js";
import type { Event } from "../core/event.js";
import { newestFirst } from "../router/newest-first.js";
import { TRANSFER_TOOL_NAME } from "../transfer/constants.js";
import { onBranch } from "./branch.js";
import { latestResponseAfterItsCall, responsesAfterTheirCalls } from "./function-response-order.js";
import { pyRepr } from "./py-repr.js";

export type IncludeContents = "default" | "none";

/** Framework calls that never reach a model (ADK `_is_auth_event`, `_is_request_confirmation_event`). */
const FRAMEWORK_CALLS = new Set(["adk_request_credential", "adk_request_confirmation"]);

const isVisiblePart = (p: Part): boolean =>
  !p.thought &&
  (p.text !== undefined ||
    p.functionCall !== undefined ||
    p.functionResponse !== undefined ||
    p.inlineData !== undefined ||
    p.fileData !== undefined ||
    p.executableCode !== undefined ||
    p.codeExecutionResult !== undefined);

/**
 * A content's visible parts in a fresh array. An index loop, not `filter`: stored events are frozen, and
 * V8's array builtins are several times slower on frozen arrays (this runs for every history message).
 */
function visibleParts(parts: readonly Part[]): Part[] {
  const out: Part[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part !== undefined && isVisiblePart(part)) out.push(part);
  }
  return out;
}

const isFrameworkPart = (p: Part): boolean =>
  (p.functionCall !== undefined && FRAMEWORK_CALLS.has(p.functionCall.name)) ||
  (p.functionResponse !== undefined && FRAMEWORK_CALLS.has(p.functionResponse.name));

/** Whether any part passes; an index loop for the reason `visibleParts` gives. */
function anyPart(parts: readonly Part[], test: (p: Part) => boolean): boolean {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part !== undefined && test(part)) return true;
  }
  return false;
}

const isTransferEvent = (e: Event): boolean =>
  Boolean(e.actions.transferToAgent) ||
  (e.content?.parts ?? []).some((p) => p.functionCall?.name === TRANSFER_TOOL_NAME);

/** The first part of every message that relays another agent's event (ADK's wording). */
export const RELAY_PREAMBLE = "For context:";

/** The `errorCode` of a remote task that ended `failed` (ADK-SEMANTICS §5.7). */
const A2A_TASK_FAILED = "A2A_TASK_FAILED";

/**
 * Another agent's event as the current agent reads it: user-role "For context:" text (ADK-SEMANTICS §3.6).
 * A failed remote task reads as a failure note, never as something the remote agent said (§5.7).
 */
export function reframe(event: Event): Content | undefined {
  if (event.errorCode === A2A_TASK_FAILED) {
    const note = `[${event.author}] failed: ${event.errorMessage ?? "Remote A2A task failed"}`;
    return { role: "user", parts: [{ text: RELAY_PREAMBLE }, { text: note }] };
  }
  const parts: Part[] = [];
  for (const p of event.content?.parts ?? []) {
    if (p.thought) continue;
    if (p.text !== undefined) parts.push({ text: `[${event.author}] said: ${p.text}` });
    else if (p.functionCall) {
      parts.push({
        text: `[${event.author}] called tool \`${p.functionCall.name}\` with parameters: ${pyRepr(p.functionCall.args ?? {})}`,
      });
    } else if (p.functionResponse) {
      parts.push({
        text: `[${event.author}] \`${p.functionResponse.name}\` tool returned result: ${pyRepr(p.functionResponse.response)}`,
      });
    } else parts.push(p);
  }
  return parts.length === 0 ? undefined : { role: "user", parts: [{ text: RELAY_PREAMBLE }, ...parts] };
}

/**
 * The contents an agent's model sees: the session's events filtered and re-framed (ADK `_get_contents`).
 * With `includeContents: "none"` only the current turn: from the newest event by the user or another
 * agent that is not a transfer event. Function responses are then put right after their calls, a late
 * answer to a long-running call replacing its pending response and what came between.
 */
export function buildContents(
  events: readonly Event[],
  agentName: string,
  options: { includeContents: IncludeContents; branch?: string | undefined },
): Content[] {
  // The router's newest-first walk already leaves out rewound ranges (PYX); history wants oldest first.
  // One pass and one array however long the session: this runs on every model call.
  const visible: Event[] = [];
  for (const e of newestFirst(events))
    if (
      e.content?.role !== undefined &&
      anyPart(e.content.parts ?? [], isVisiblePart) &&
      onBranch(e.branch, options.branch) &&
      !anyPart(e.content.parts ?? [], isFrameworkPart)
    )
      visible.push(e);
  visible.reverse();
  let start = 0;
  if (options.includeContents === "none") {
    start = visible.length;
    for (let i = visible.length - 1; i >= 0; i--) {
      const e = visible[i];
      if (e && e.author !== agentName && !isTransferEvent(e)) {
        start = i;
        break;
      }
    }
  }
  const contents: Content[] = [];
  for (let i = start; i < visible.length; i++) {
    const e = visible[i];
    if (e === undefined) continue;
    if (e.author === agentName || e.author === "user") {
      // A stored content holds only `role` and `parts` (zod strips the rest); `visible` has a role.
      if (e.content) contents.push({ role: e.content.role, parts: visibleParts(e.content.parts ?? []) });
    } else {
      const framed = reframe(e);
      if (framed) contents.push(framed);
    }
  }
  return responsesAfterTheirCalls(latestResponseAfterItsCall(contents));
}
