import { APICallError } from "@ai-sdk/provider";
import { BatonError, type ModelErrorCode } from "../core/errors.js";
import { redact } from "../core/redact.js";

/** The HTTP status an error carries: `APICallError.statusCode`, or a numeric `status`/`statusCode`. */
export function statusOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  if (error instanceof BatonError) return error.upstreamStatus;
  if (typeof error !== "object" || error === null) return undefined;
  if ("statusCode" in error && typeof error.statusCode === "number") return error.statusCode;
  if ("status" in error && typeof error.status === "number") return error.status;
  return undefined;
}

/** A timeout: a `TimeoutError` (AbortSignal.timeout), or an abort whose reason was one. */
export function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "TimeoutError") return true;
  return error.name === "AbortError" && error.cause instanceof Error && error.cause.name === "TimeoutError";
}

/** A connection that never produced an HTTP response (fetch's TypeError, socket errors, no status). */
export function isNetworkError(error: unknown): boolean {
  if (APICallError.isInstance(error)) return error.statusCode === undefined;
  if (error instanceof TypeError) return /fetch|network|connect|socket|terminated/i.test(error.message);
  return (
    error instanceof Error && /network connection lost|ECONNRESET|ECONNREFUSED|ETIMEDOUT/i.test(error.message)
  );
}

function codeFor(error: unknown, status: number | undefined): ModelErrorCode {
  if (status === 429) return "MODEL_RATE_LIMITED";
  if (status === 401 || status === 403) return "MODEL_AUTH_FAILED";
  if (status === 408 || isTimeout(error)) return "MODEL_TIMEOUT";
  if (status === 404) return "MODEL_NOT_FOUND";
  if (status !== undefined && status >= 400 && status < 500) return "MODEL_BAD_REQUEST";
  if ((status !== undefined && status >= 500) || isNetworkError(error)) return "MODEL_UNAVAILABLE";
  return "MODEL_ERROR";
}

/**
 * The final `BatonError` for a failed call: classified by status (429, 401/403, 408 or timeout, 404,
 * other 4xx, 5xx or network), with a short message naming the provider, the status and the provider's words.
 */
export function toModelError(error: unknown, context: { provider: string; attempts: number }): BatonError {
  if (error instanceof BatonError) return error;
  const status = statusOf(error);
  const code = codeFor(error, status);
  const detail = redact(error instanceof Error ? error.message : String(error)) || "no message";
  const http = status === undefined ? "" : ` (HTTP ${status})`;
  const tries = context.attempts > 1 ? ` after ${context.attempts} attempts` : "";
  const message = `Model call to ${context.provider} failed${http}${tries}: ${detail}`;
  const upstream = status === undefined ? {} : { upstreamStatus: status };
  return new BatonError(code, message, { ...upstream, cause: error });
}

export { redact };
