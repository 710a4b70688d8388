import type { MiddlewareHandler } from "hono";
import { timingSafeEqual } from "hono/utils/buffer";
import { SERVICE_CALLER } from "./caller.js";
import { verifyEndUser } from "./end-user-auth.js";
import { endUserConfigOf } from "./end-user-config.js";
import type { HonoEnv } from "./types.js";
import { unauthorized } from "./unauthorized.js";

const NOT_CONFIGURED =
  "No API tokens are configured. Set the API_TOKENS secret (comma-separated tokens) with " +
  "`wrangler secret put API_TOKENS`, or set the var ALLOW_UNAUTHENTICATED=true for local development only.";

const INVALID = "Missing or invalid bearer token.";

/** `Authorization: Bearer <token>` (RFC 6750 token68 syntax), as Hono's bearerAuth reads it. */
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/** The configured bearer tokens (`API_TOKENS`, comma-separated). */
export const tokensOf = (value: unknown): string[] =>
  typeof value === "string"
    ? value
        .split(",")
        .map((t) => t.trim())
        .filter((t) => t !== "")
    : [];

/**
 * Whether the Worker serves without any credential (no `API_TOKENS`, no end-user mode, and
 * `ALLOW_UNAUTHENTICATED` set: what `npm run dev` runs). Then nothing but the `Host` keeps a page on another
 * site from calling it through DNS rebinding (`host-check.ts`).
 */
export const servesWithoutTokens = (env: HonoEnv["Bindings"] | undefined): boolean =>
  env?.ALLOW_UNAUTHENTICATED === "true" && tokensOf(env.API_TOKENS).length === 0 && !endUserConfigOf(env);

async function isServiceToken(token: string, tokens: readonly string[]): Promise<boolean> {
  // Every token is compared (in constant time), so the answer's timing says nothing about which matched.
  const matches = await Promise.all(tokens.map((known) => timingSafeEqual(known, token)));
  return matches.includes(true);
}

/**
 * Authenticates every request behind it and puts its `caller` on the context. A service token from
 * `API_TOKENS` has full access; when end-user mode is on (`JWT_ISSUER`, docs/decisions/022), any other
 * bearer must be a JWT the issuer signed, and the caller is that end user (`sub`). With neither configured
 * every request is refused, unless `ALLOW_UNAUTHENTICATED` is `"true"` (what `npm run dev` sets).
 */
export function requireToken(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const tokens = tokensOf(c.env.API_TOKENS);
    const endUsers = endUserConfigOf(c.env);
    if (tokens.length === 0 && !endUsers) {
      if (c.env.ALLOW_UNAUTHENTICATED !== "true") throw unauthorized(NOT_CONFIGURED, "invalid_request");
      c.set("caller", SERVICE_CALLER);
      return next();
    }
    const token = BEARER.exec(c.req.header("Authorization") ?? "")?.[1];
    if (token === undefined) throw unauthorized(INVALID, "invalid_request");
    if (await isServiceToken(token, tokens)) {
      c.set("caller", SERVICE_CALLER);
      return next();
    }
    if (!endUsers) throw unauthorized(INVALID);
    c.set("caller", await verifyEndUser(c, token, endUsers, c.var.deps.services));
    return next();
  };
}
