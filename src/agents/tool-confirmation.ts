import * as z from "zod";
import {
  type FunctionCall,
  FunctionCallSchema,
  functionCallsOf,
  functionResponsesOf,
} from "../core/content.js";
import type { Event } from "../core/event.js";
import { newFunctionCallId } from "../core/ids.js";
import { onBranch } from "./branch.js";
import type { InvocationContext } from "./invocation-context.js";

/*
 * Tool confirmation, ADK's `adk_request_confirmation` flow (`tools/tool_confirmation.py`,
 * `flows/llm_flows/request_confirmation.py`). A tool asks for confirmation through its ToolContext; the
 * agent then emits a long-running `adk_request_confirmation` call holding the original call; the user
 * answers it with a function response; the agent that asked runs again and re-runs the original call
 * with the answer. Any agent kind can take part: see `runFunctionCalls` and `resumeConfirmedCalls`.
 */

/** The framework call that asks the user to confirm a tool call (left out of model history). */
export const REQUEST_CONFIRMATION = "adk_request_confirmation";

/** ADK `ToolConfirmation`: why the tool asks, the user's answer, and any data the user adds. */
export const ToolConfirmationSchema = z.strictObject({
  hint: z.string().default(""),
  confirmed: z.boolean().default(false),
  payload: z.unknown().optional(),
});
export type ToolConfirmation = z.infer<typeof ToolConfirmationSchema>;

/**
 * The user's answer in an `adk_request_confirmation` function response: the object itself, or ADK's
 * client wrapper `{"response": "<json>"}`. A malformed answer counts as a rejection, as in ADK.
 */
export function readToolConfirmation(response: Record<string, unknown>): ToolConfirmation {
  let value: unknown = response;
  const keys = Object.keys(response);
  if (keys.length === 1 && typeof response.response === "string") {
    try {
      value = JSON.parse(response.response);
    } catch {
      return { hint: "", confirmed: false };
    }
  }
  const parsed = ToolConfirmationSchema.safeParse(value);
  return parsed.success ? parsed.data : { hint: "", confirmed: false };
}

/**
 * The event that asks the user to confirm: one long-running `adk_request_confirmation` call per call
 * that requested it, carrying `originalFunctionCall` and `toolConfirmation` (ADK
 * `generate_request_confirmation_event`). `undefined` when no call asked.
 */
export function confirmationRequestEvent(
  ctx: InvocationContext,
  calls: readonly FunctionCall[],
  responseEvent: Event,
): Event | undefined {
  const parts = Object.entries(responseEvent.actions.requestedToolConfirmations).flatMap(([id, asked]) => {
    const original = calls.find((call) => call.id === id);
    if (original === undefined) return [];
    const confirmation = ToolConfirmationSchema.safeParse(asked);
    const toolConfirmation = confirmation.success ? confirmation.data : { hint: "", confirmed: false };
    const args = { originalFunctionCall: original, toolConfirmation };
    const call = { id: newFunctionCallId(ctx.services.ids), name: REQUEST_CONFIRMATION, args };
    return [{ functionCall: call }];
  });
  if (parts.length === 0) return undefined;
  return ctx.newEvent({
    content: { role: responseEvent.content?.role ?? "user", parts },
    longRunningToolIds: parts.map((p) => p.functionCall.id),
  });
}

/** Calls the user has just confirmed or rejected and that have no answer yet, with the user's answers. */
export interface ConfirmedCalls {
  calls: FunctionCall[];
  confirmations: Map<string, ToolConfirmation>;
}

/**
 * Reads the newest user event on this branch: when it answers `adk_request_confirmation` calls, finds
 * the original calls those carried and leaves out the ones already answered since (ADK
 * `_RequestConfirmationLlmRequestProcessor`). `undefined` when there is nothing to resume.
 */
export function confirmedCalls(
  events: readonly Event[],
  branch: string | undefined,
): ConfirmedCalls | undefined {
  // Most turns answer no confirmation: the newest user event says so without a pass over the session.
  const newestUser = events.findLast((e) => e.author === "user" && onBranch(e.branch, branch));
  if (!functionResponsesOf(newestUser?.content).some((r) => r.name === REQUEST_CONFIRMATION && r.id))
    return undefined;
  const visible = events.filter((e) => onBranch(e.branch, branch));
  const userIndex = visible.findLastIndex((e) => e.author === "user");
  const answers = new Map<string, ToolConfirmation>();
  for (const r of functionResponsesOf(visible[userIndex]?.content)) {
    if (r.name === REQUEST_CONFIRMATION && r.id) answers.set(r.id, readToolConfirmation(r.response));
  }
  if (answers.size === 0) return undefined;
  const calls: FunctionCall[] = [];
  const confirmations = new Map<string, ToolConfirmation>();
  for (const event of visible.slice(0, userIndex)) {
    for (const request of functionCallsOf(event.content)) {
      const answer = request.id === undefined ? undefined : answers.get(request.id);
      const original = FunctionCallSchema.safeParse(request.args?.originalFunctionCall);
      if (answer === undefined || !original.success || !original.data.id) continue;
      calls.push(original.data);
      confirmations.set(original.data.id, answer);
    }
  }
  const answeredSince = new Set(
    visible.slice(userIndex + 1).flatMap((e) => functionResponsesOf(e.content).map((r) => r.id)),
  );
  const open = calls.filter((call) => !answeredSince.has(call.id));
  return open.length === 0 ? undefined : { calls: open, confirmations };
}
