import { HTTPException } from "hono/http-exception";

/**
 * A 401 with Baton's JSON body and a `WWW-Authenticate: Bearer` challenge (RFC 6750); `onError` answers
 * an `HTTPException` with its own response as is.
 */
export function unauthorized(detail: string, error = "invalid_token"): HTTPException {
  const res = Response.json(
    { detail, code: "unauthorized" },
    { status: 401, headers: { "WWW-Authenticate": `Bearer error="${error}"` } },
  );
  return new HTTPException(401, { message: detail, res });
}
