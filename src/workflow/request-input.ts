import * as z from "zod";
import type { Event } from "../core/event.js";
import type { NodeContext } from "./node-context.js";

/** The name of the call a workflow node asks the user with (ADK `REQUEST_INPUT_FUNCTION_CALL_NAME`). */
export const REQUEST_INPUT = "adk_request_input";

const REQUEST = "baton.requestInput";

export interface RequestInputParams {
  /** The id the answer must carry; a fresh UUID by default. */
  interruptId?: string;
  /** What the user is asked. */
  message?: string;
  /** Data for the client to show (a draft to approve, options to pick from). */
  payload?: unknown;
  /** The answer's shape (zod): the call carries it as JSON Schema, and an answer that does not match is refused. */
  responseSchema?: z.ZodType;
}

/**
 * Returned or yielded by a node: the workflow pauses on an `adk_request_input` call until the user answers it
 * with a function response of the same id (or plain text, when it is the only question open); the node's
 * output is then the answer (ADK 2.x `RequestInput`).
 * @example
 * const approve = (ctx: NodeContext, draft: string) => new RequestInput({ message: "Approve?", payload: draft });
 */
export class RequestInput {
  readonly [REQUEST] = true;
  constructor(readonly params: RequestInputParams = {}) {}
}

export const isRequestInput = (value: unknown): value is RequestInput =>
  typeof value === "object" && value !== null && REQUEST in value;

/** The long-running `adk_request_input` call event a `RequestInput` becomes (its args as ADK writes them). */
export function requestInputEvent(ctx: NodeContext, request: RequestInput): Event {
  const {
    interruptId = ctx.invocation.services.ids.uuid(),
    message,
    payload,
    responseSchema,
  } = request.params;
  const schema = responseSchema ? z.toJSONSchema(responseSchema, { target: "draft-7" }) : null;
  const args = { interruptId, payload: payload ?? null, message: message ?? null, response_schema: schema };
  return ctx.newEvent({
    content: { role: "model", parts: [{ functionCall: { name: REQUEST_INPUT, args, id: interruptId } }] },
    longRunningToolIds: [interruptId],
  });
}
