import {
  type InputRequest,
  type InputRequests,
  inputRequired,
  inputResponse,
} from "@modelcontextprotocol/server";
import { REQUEST_CONFIRMATION } from "../../agents/tool-confirmation.js";
import { type Content, type FunctionCall, functionCallsOf, functionResponsesOf } from "../../core/content.js";
import type { Event } from "../../core/event.js";

/*
 * A turn that pauses for input, as MCP 2026-07-28's multi round-trip request (`input_required`): the turn
 * tool's answer names what each open call needs (an elicitation per call: a tool confirmation, or the
 * answer a long-running tool waits for); the client's retry carries the user's answers, which go into the
 * same session as function responses, as `/run` takes them (ADK's rules), so the same turn goes on.
 */

/** `requestState`'s prefix: the state is only the session's id (the session itself says what is open). */
const STATE_PREFIX = "baton-turn:";

/**
 * The calls a turn's events left waiting for input: long-running calls (`longRunningToolIds`, among them
 * ADK's `adk_request_confirmation`) of the newest invocation that no later event answers.
 */
export function openCalls(events: readonly Event[]): FunctionCall[] {
  const last = events.findLast((e) => e.author !== "user")?.invocationId;
  const open = new Map<string, FunctionCall>();
  for (const event of events) {
    if (event.invocationId !== last || event.partial) continue;
    const waiting = new Set(event.longRunningToolIds ?? []);
    for (const call of functionCallsOf(event.content))
      if (call.id !== undefined && waiting.has(call.id)) open.set(call.id, call);
    for (const response of functionResponsesOf(event.content))
      if (response.id !== undefined) open.delete(response.id);
  }
  return [...open.values()];
}

const recordOf = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** What the user is asked for one open call. */
function inputRequestOf(call: FunctionCall): InputRequest {
  const args = recordOf(call.args);
  if (call.name === REQUEST_CONFIRMATION) {
    const original = recordOf(args.originalFunctionCall);
    const hint = String(recordOf(args.toolConfirmation).hint ?? "");
    return inputRequired.elicit({
      message: hint || `Confirm the call of ${String(original.name ?? "a tool")}?`,
      requestedSchema: {
        type: "object",
        properties: {
          confirmed: { type: "boolean", title: "Confirm", description: "Let the call run." },
          payload: { type: "string", description: "Anything to pass on with the answer (optional)." },
        },
        required: ["confirmed"],
      },
    });
  }
  return inputRequired.elicit({
    message: `${call.name} waits for an answer (it was called with ${JSON.stringify(args)}).`,
    requestedSchema: {
      type: "object",
      properties: { answer: { type: "string", description: `What ${call.name} answers.` } },
      required: ["answer"],
    },
  });
}

/** The `input_required` answer for a paused turn of `sessionId`, asking for each of `calls`. */
export function turnInputRequired(sessionId: string, calls: readonly FunctionCall[]) {
  const inputRequests: InputRequests = {};
  for (const call of calls) if (call.id !== undefined) inputRequests[call.id] = inputRequestOf(call);
  return inputRequired({ inputRequests, requestState: `${STATE_PREFIX}${sessionId}` });
}

/** The session a retry's `requestState` names, if it is one of the turn tool's (untrusted: re-checked). */
export function sessionOfState(state: unknown): string | undefined {
  if (typeof state !== "string" || !state.startsWith(STATE_PREFIX)) return undefined;
  const id = state.slice(STATE_PREFIX.length);
  return id === "" ? undefined : id;
}

/** One open call's function response from the user's answer, or `undefined` when it was not answered. */
function responseOf(call: FunctionCall, responses: Record<string, unknown> | undefined) {
  if (call.id === undefined) return undefined;
  const view = inputResponse(responses, call.id);
  if (view.kind !== "elicit") return undefined;
  const accepted = view.action === "accept";
  const content = view.content ?? {};
  if (call.name === REQUEST_CONFIRMATION) {
    const payload = accepted && typeof content.payload === "string" ? { payload: content.payload } : {};
    return { confirmed: accepted && content.confirmed === true, ...payload };
  }
  return accepted ? { result: content.answer } : { error: `The user did not answer (${view.action}).` };
}

/**
 * The user's answers to the open calls as the message that resumes the turn (function responses), and
 * the calls still unanswered (asked again).
 */
export function resumeMessage(
  calls: readonly FunctionCall[],
  responses: Record<string, unknown> | undefined,
): { message: Content; unanswered: FunctionCall[] } {
  const parts: NonNullable<Content["parts"]> = [];
  const unanswered: FunctionCall[] = [];
  for (const call of calls) {
    const response = responseOf(call, responses);
    if (response === undefined) unanswered.push(call);
    else parts.push({ functionResponse: { id: call.id, name: call.name, response } });
  }
  return { message: { role: "user", parts }, unanswered };
}
