import { A2AError } from "@a2a-js/sdk/errors";
import { ResponseTooLarge } from "./read-capped.js";
import { RemoteCallError } from "./remote-call-error.js";

export interface FailureContext {
  /** The HTTP error status the call's fetches saw, if any. */
  status: number | undefined;
  /** Whether the connection itself failed (refused, reset, dropped mid-stream). */
  networkError: boolean;
  /** Whether the per-call timeout fired. */
  timedOut: boolean;
  timeoutMs: number;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The JSON-RPC / A2A error code an SDK error carries, also when wrapped as the `cause` of an SSE error. */
function a2aErrorCode(error: unknown): number | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof A2AError && "envelopeCode" in e && typeof e.envelopeCode === "number")
      return e.envelopeCode;
  }
  return undefined;
}

const isTooLarge = (error: unknown): boolean =>
  error instanceof ResponseTooLarge ||
  (error instanceof Error && /exceeded the maximum allowed size/.test(error.message));

/**
 * What a failed call becomes (ADK-SEMANTICS §5.6, issue 7 item 7): `A2A_TIMEOUT` when the timeout fired;
 * `A2A_REQUEST_FAILED` for an HTTP error status, a failed or dropped connection (also mid-stream) or an A2A
 * error object (the status or the A2A code in metadata); `A2A_PROTOCOL_ERROR` for a reply Baton cannot
 * read (malformed JSON-RPC, a stream that ends before the task settles, a reply past the size cap).
 */
export function classifyFailure(error: unknown, ctx: FailureContext): RemoteCallError {
  if (error instanceof RemoteCallError) return error;
  const detail = messageOf(error);
  const options = { cause: error };
  if (ctx.timedOut) {
    return new RemoteCallError(
      "A2A_TIMEOUT",
      `A2A request failed: no reply within ${ctx.timeoutMs} ms`,
      {},
      options,
    );
  }
  if (isTooLarge(error)) {
    return new RemoteCallError("A2A_PROTOCOL_ERROR", `A2A request failed: ${detail}`, {}, options);
  }
  const code = a2aErrorCode(error);
  if (code !== undefined) {
    return new RemoteCallError(
      "A2A_REQUEST_FAILED",
      `A2A request failed: ${detail}`,
      {
        "a2a:error_code": code,
        ...(ctx.status === undefined ? {} : { "a2a:status_code": String(ctx.status) }),
      },
      options,
    );
  }
  if (ctx.status !== undefined) {
    return new RemoteCallError(
      "A2A_REQUEST_FAILED",
      `A2A request failed: HTTP ${ctx.status}: ${detail}`,
      { "a2a:status_code": String(ctx.status) },
      options,
    );
  }
  if (ctx.networkError) {
    return new RemoteCallError("A2A_REQUEST_FAILED", `A2A request failed: ${detail}`, {}, options);
  }
  return new RemoteCallError("A2A_PROTOCOL_ERROR", `A2A request failed: ${detail}`, {}, options);
}
