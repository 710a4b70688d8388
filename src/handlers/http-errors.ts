import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { BatonError } from "../core/errors.js";

/**
 * The one place errors become responses: FastAPI-style `{"detail": …}` bodies (ADK-SEMANTICS §6.1),
 * plus Baton's `code`. Handlers do not catch to build responses.
 */
export function onError(error: Error, c: Context): Response {
  if (error instanceof BatonError) {
    const retry = error.options.retryAfterSeconds;
    const headers = retry === undefined ? undefined : { "Retry-After": String(Math.ceil(retry)) };
    // SAFETY: every BatonError status comes from the closed table in core/errors.ts (4xx/5xx with bodies).
    return c.json({ detail: error.message, code: error.code }, error.status as ContentfulStatusCode, headers);
  }
  if (error instanceof HTTPException) {
    // A middleware that built its own response (bearerAuth: JSON body, WWW-Authenticate) keeps it.
    if (error.res) return error.getResponse();
    return c.json({ detail: error.message || error.getResponse().statusText }, error.status);
  }
  console.error("Unhandled error", error);
  return c.json({ detail: "Internal Server Error", code: "internal" }, 500);
}

export const notFound = (c: Context): Response => c.json({ detail: "Not Found" }, 404);
