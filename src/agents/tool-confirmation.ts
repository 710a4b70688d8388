import { z } from "zod";
import { type FunctionCall, FunctionCallSchema, functionResponsesOf } from "../core/content.js";
import type { Event } from "../core/event.js";
import { newFunctionCallId } from "../core/ids.js";
import type { AgentNode } from "../router/agent-node.js";
import type { ToolConfirmation } from "./callback-context.js";
import type { FunctionTool } from "./function-tool.js";
import type { InvocationContext } from "./invocation-context.js";
import { type CallOutcome, responseEvent, runToolCall, type ToolCallbacks } from "./tool-execution.js";

/** ADK's framework call that asks the user to confirm a tool call (`REQUEST_CONFIRMATION_FUNCTION_CALL_NAME`). */
export const REQUEST_CONFIRMATION = "adk_request_confirmation";

const RequestArgsSchema = z.object({ originalFunctionCall: FunctionCallSchema });
const AnswerSchema = z.object({ confirmed: z.boolean(), payload: z.unknown().optional() });

/**
 * The event that pauses the turn for the confirmations a response event requested: one
 * `adk_request_confirmation` call per confirmation, each long-running (ADK
 * `generate_request_confirmation_event`). `undefined` when nothing was requested.
 */
export function confirmationRequestEvent(
  ctx: InvocationContext,
  response: Event,
  calls: readonly FunctionCall[],
): Event | undefined {
  const requested = response.actions.requestedToolConfirmations;
  const parts = calls.flatMap((call) => {
    const confirmation = call.id === undefined ? undefined : requested[call.id];
    if (confirmation === undefined) return [];
    const id = newFunctionCallId(ctx.services.ids);
    const args = { originalFunctionCall: call, toolConfirmation: confirmation };
    return [{ functionCall: { id, name: REQUEST_CONFIRMATION, args } }];
  });
  if (parts.length === 0) return undefined;
  const ids = parts.map((p) => p.functionCall.id);
  return ctx.newEvent({ content: { role: "user", parts }, longRunningToolIds: ids });
}

/** The user's answer in a confirmation response: `{confirmed, payload}`, or that object as a JSON string under `response`. */
function answerOf(response: Record<string, unknown>): ToolConfirmation | undefined {
  const direct = AnswerSchema.safeParse(response);
  if (direct.success) return { hint: "", ...direct.data };
  const wrapped = typeof response.response === "string" ? safeJson(response.response) : undefined;
  const parsed = AnswerSchema.safeParse(wrapped);
  return parsed.success ? { hint: "", ...parsed.data } : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON: no answer, the call stays unconfirmed
  }
}

/** The original call behind one of `agent`'s confirmation requests, by the request's id. */
function originalCall(ctx: InvocationContext, agent: AgentNode, requestId: string): FunctionCall | undefined {
  for (const event of ctx.events) {
    if (event.author !== agent.name) continue;
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.name !== REQUEST_CONFIRMATION || call.id !== requestId) continue;
      const args = RequestArgsSchema.safeParse(call.args);
      return args.success ? args.data.originalFunctionCall : undefined;
    }
  }
  return undefined;
}

/**
 * ADK's request-confirmation processor: when the user's message answers `agent`'s confirmation
 * requests, the original calls run again with the answer (approved: the tool runs; refused: an error
 * response). Returns their outcomes, in the order of the answers.
 */
export async function resumeConfirmedCalls(
  ctx: InvocationContext,
  agent: AgentNode,
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
): Promise<CallOutcome[]> {
  const answers = functionResponsesOf(ctx.userContent).filter((r) => r.name === REQUEST_CONFIRMATION);
  const runs = answers.flatMap((answer) => {
    const call = answer.id === undefined ? undefined : originalCall(ctx, agent, answer.id);
    const confirmation = answerOf(answer.response);
    if (call === undefined || confirmation === undefined) return [];
    return [runToolCall(ctx, agent, call, tools, callbacks, confirmation)];
  });
  return Promise.all(runs);
}

/** The function-response event of the calls the user's message confirmed or refused; `undefined` when none. */
export async function confirmedCallsEvent(
  ctx: InvocationContext,
  agent: AgentNode,
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
): Promise<Event | undefined> {
  return responseEvent(ctx, await resumeConfirmedCalls(ctx, agent, tools, callbacks));
}
