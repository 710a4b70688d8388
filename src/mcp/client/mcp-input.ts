import * as z from "zod";
import type { ToolContext } from "../../agents/callback-context.js";
import { REQUEST_CONFIRMATION } from "../../agents/tool-confirmation.js";
import { functionCallsOf } from "../../core/content.js";

/*
 * MCP 2026-07-28's `input_required` (multi round-trip requests) on ADK's `adk_request_confirmation` flow
 * (decision 054). A server that needs input answers `tools/call` with `inputRequests` (elicitation,
 * sampling, roots) and an opaque `requestState`. Roots Baton answers itself (it has none); elicitation and
 * sampling pause the turn: the tool asks for confirmation with the requests in the payload, the user
 * answers the `adk_request_confirmation` call, and the call runs again, retrying `tools/call` with the
 * answers as `inputResponses` and the `requestState` exactly as the server sent it, read back from the
 * stored request (never from the user's answer).
 */

/** The key of the confirmation payload that carries what the server asked. */
const KEY = "mcpInputRequired";

const InputRequestSchema = z.looseObject({ method: z.string(), params: z.unknown().optional() });
const InputRequiredSchema = z.object({
  resultType: z.literal("input_required"),
  inputRequests: z.record(z.string(), InputRequestSchema).optional(),
  requestState: z.string().optional(),
});
/** A server's `input_required` answer to `tools/call`, as the v2 client hands it back (manual mode). */
export type InputRequired = z.infer<typeof InputRequiredSchema>;

/** Whether a `tools/call` answer asks for input rather than completing. */
export const inputRequiredOf = (result: unknown): InputRequired | undefined => {
  const parsed = InputRequiredSchema.safeParse(result);
  return parsed.success ? parsed.data : undefined;
};

type InputRequest = z.infer<typeof InputRequestSchema>;
const forUser = (request: InputRequest) =>
  request.method === "elicitation/create" || request.method === "sampling/createMessage";

/** The retry of a call whose server asked for input: the answers and the server's state, as sent. */
export interface InputRetry {
  inputResponses: Record<string, unknown>;
  requestState?: string;
}

/**
 * The answers Baton gives without asking anyone, or `undefined` when the user must answer: roots only
 * (Baton exposes no filesystem roots, so the list is empty).
 */
export function answeredByBaton(asked: InputRequired): InputRetry | undefined {
  const requests = Object.entries(asked.inputRequests ?? {});
  if (requests.some(([, request]) => forUser(request))) return undefined;
  const inputResponses = Object.fromEntries(
    requests.map(([key, request]) => [key, request.method === "roots/list" ? { roots: [] } : {}]),
  );
  return {
    inputResponses,
    ...(asked.requestState === undefined ? {} : { requestState: asked.requestState }),
  };
}

const textOf = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/** What the server asked, for the user: each elicitation's message, each sampling's last message. */
function hintOf(tool: string, asked: InputRequired): string {
  const lines = Object.entries(asked.inputRequests ?? {}).flatMap(([key, request]) => {
    const params = z.looseObject({}).safeParse(request.params).data ?? {};
    if (request.method === "elicitation/create") return [`${key}: ${textOf(params.message ?? "")}`];
    if (request.method !== "sampling/createMessage") return [];
    const messages = z.array(z.looseObject({ content: z.unknown() })).safeParse(params.messages).data ?? [];
    const last = z.looseObject({ text: z.string() }).safeParse(messages.at(-1)?.content).data?.text;
    return [`${key} (a model reply): ${last ?? ""}`];
  });
  return [
    `The MCP tool ${tool}() needs input before it can finish. Answer with a FunctionResponse carrying a ToolConfirmation: confirmed true and, as payload, the answer (one request) or an object of answers by key.`,
    ...lines,
  ].join("\n");
}

/**
 * Pauses the call on what the server asked: an `adk_request_confirmation` with the requests in its
 * payload. The function response the model does not see (the turn pauses) says so.
 */
export function askForInput(ctx: ToolContext, tool: string, asked: InputRequired): Record<string, unknown> {
  ctx.requestConfirmation({ hint: hintOf(tool, asked), payload: { [KEY]: asked } });
  ctx.actions.skipSummarization = true;
  return { error: "This tool call needs input from the user; the turn waits for it." };
}

/** The server's request this call paused on: from the newest `adk_request_confirmation` for the call. */
function pausedOn(ctx: ToolContext): InputRequired | undefined {
  for (const event of [...ctx.invocation.session.events].reverse())
    for (const call of functionCallsOf(event.content)) {
      if (call.name !== REQUEST_CONFIRMATION) continue;
      const args = z
        .looseObject({
          originalFunctionCall: z.looseObject({ id: z.string() }),
          toolConfirmation: z.looseObject({ payload: z.unknown().optional() }),
        })
        .safeParse(call.args);
      if (!args.success || args.data.originalFunctionCall.id !== ctx.functionCallId) continue;
      const payload = z.looseObject({ [KEY]: z.unknown() }).safeParse(args.data.toolConfirmation.payload);
      return inputRequiredOf(payload.data?.[KEY]);
    }
  return undefined;
}

/** An answer to one request from what the user gave for it; `undefined` when it cannot answer it. */
function answerTo(request: InputRequest, confirmed: boolean, given: unknown): unknown {
  if (request.method === "roots/list") return { roots: [] };
  if (request.method === "elicitation/create") {
    if (!confirmed) return { action: "decline" };
    const content = z.record(z.string(), z.unknown()).safeParse(given);
    return content.success ? { action: "accept", content: content.data } : { action: "accept" };
  }
  if (request.method === "sampling/createMessage" && confirmed && given !== undefined)
    return { role: "assistant", content: { type: "text", text: textOf(given) }, model: "baton-user" };
  return undefined;
}

/**
 * The retry of a call the user has just answered input for, or `undefined` when this run is not such an
 * answer; `{declined}` when it cannot be retried (a sampling request the user declined or left empty).
 * The payload is the answer to the one request for the user, or an object of answers by request key;
 * `{inputResponses: {...}}` gives the MCP answers as they are.
 */
export function inputRetryOf(ctx: ToolContext): InputRetry | { declined: string } | undefined {
  const answer = ctx.toolConfirmation;
  if (answer === undefined) return undefined;
  const asked = pausedOn(ctx);
  if (asked === undefined) return undefined;
  const requests = Object.entries(asked.inputRequests ?? {});
  const raw = z.object({ inputResponses: z.record(z.string(), z.unknown()) }).safeParse(answer.payload);
  const forUsers = requests.filter(([, request]) => forUser(request));
  const byKey = z.record(z.string(), z.unknown()).safeParse(answer.payload).data ?? {};
  const inputResponses: Record<string, unknown> = {};
  for (const [key, request] of requests) {
    const given = forUsers.length === 1 ? answer.payload : byKey[key];
    const value = raw.success ? raw.data.inputResponses[key] : answerTo(request, answer.confirmed, given);
    if (value === undefined) return { declined: `The user gave no answer to ${key} (${request.method}).` };
    inputResponses[key] = value;
  }
  return {
    inputResponses,
    ...(asked.requestState === undefined ? {} : { requestState: asked.requestState }),
  };
}
