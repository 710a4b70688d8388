import type { Context, MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import type { HonoEnv } from "./types.js";

const NOT_CONFIGURED =
  "No API tokens are configured. Set the API_TOKENS secret (comma-separated tokens) with " +
  "`wrangler secret put API_TOKENS`, or set the var ALLOW_UNAUTHENTICATED=true for local development only.";

/** The configured bearer tokens (`API_TOKENS`, comma-separated). */
export const tokensOf = (value: unknown): string[] =>
  typeof value === "string"
    ? value
        .split(",")
        .map((t) => t.trim())
        .filter((t) => t !== "")
    : [];

/**
 * Bearer tokens from `API_TOKENS`, compared in constant time by Hono's `bearerAuth`. With no tokens
 * every request is refused, unless `ALLOW_UNAUTHENTICATED` is `"true"` (what `npm run dev` sets).
 */
export function requireToken(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const tokens = tokensOf(c.env.API_TOKENS);
    if (tokens.length === 0) {
      if (c.env.ALLOW_UNAUTHENTICATED === "true") return next();
      return c.json({ detail: NOT_CONFIGURED, code: "unauthorized" }, 401);
    }
    // A Response (not a plain body) sets the status: a malformed header is a 401 too, not Hono's 400.
    const unauthorized = {
      message: (ctx: Context) =>
        ctx.json({ detail: "Missing or invalid bearer token.", code: "unauthorized" }, 401),
    };
    return bearerAuth<HonoEnv>({
      token: tokens,
      noAuthenticationHeader: unauthorized,
      invalidAuthenticationHeader: unauthorized,
      invalidToken: unauthorized,
    })(c, next);
  };
}
