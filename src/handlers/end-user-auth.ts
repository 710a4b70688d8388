import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { jwk } from "hono/jwk";
import { decode } from "hono/jwt";
import * as z from "zod";
import { lookupTable } from "../core/lookup-table.js";
import type { RunServices } from "../core/ports.js";
import type { Caller } from "./caller.js";
import type { EndUserConfig } from "./end-user-config.js";
import { jwksKeys } from "./jwks.js";
import type { HonoEnv } from "./types.js";
import { unauthorized } from "./unauthorized.js";

/** Why Hono's JWT checks refused a token, by the error's name; the token itself is never echoed. */
const REASONS: Readonly<Record<string, string>> = lookupTable({
  JwtTokenExpired: "it has expired",
  JwtTokenNotBefore: "it is not valid yet (nbf)",
  JwtTokenIssuedAt: "it was issued in the future (iat)",
  JwtTokenIssuer: "it comes from another issuer",
  JwtTokenAudience: "it is meant for another audience",
  JwtPayloadRequiresAud: "it names no audience",
  JwtTokenSignatureMismatched: "its signature does not match",
  JwtTokenInvalid: "it is malformed or signed with an unknown key",
  JwtAlgorithmNotAllowed: "its algorithm is not allowed",
  JwtSymmetricAlgorithmNotAllowed: "its algorithm is not allowed",
  JwtAlgorithmMismatch: "its algorithm does not match its key",
  JwtHeaderInvalid: "its header is invalid",
  JwtHeaderRequiresKid: "its header names no key (kid)",
});

const ClaimsSchema = z.looseObject({
  sub: z.string({ error: "no subject (sub)" }).min(1, "an empty subject (sub)"),
  exp: z.number({ error: "no expiry (exp)" }),
});

/** The token header's `kid`, to pick the key set; a token that does not decode has none (Hono refuses it). */
function kidOf(token: string): string | undefined {
  try {
    const { kid } = decode(token).header;
    return typeof kid === "string" ? kid : undefined;
  } catch {
    // Not a JWT: no key to pick; Hono's check refuses it and says why.
    return undefined;
  }
}

/** The end user a token names, with the apps it may use: `claim` as an array or a space-separated string; absent, none. */
function callerFrom(claims: Readonly<Record<string, unknown>>, claim: string | undefined): Caller {
  const subject = String(claims.sub);
  if (claim === undefined) return { kind: "end-user", subject, apps: "all" };
  const value = claims[claim];
  const names = Array.isArray(value) ? value : typeof value === "string" ? value.split(" ") : [];
  const apps = new Set(names.filter((name): name is string => typeof name === "string" && name !== ""));
  return { kind: "end-user", subject, apps };
}

/**
 * Verifies an end user's bearer JWT with Hono's `jwk` middleware (signature against the issuer's JWKS,
 * allowed algorithms, `iss`, `aud`, `exp`, `nbf`, `iat`), then requires `sub` and `exp`. A refused token
 * is a 401 saying why; an unreadable key set a 503.
 */
export async function verifyEndUser(
  c: Context<HonoEnv>,
  token: string,
  config: EndUserConfig,
  services: Pick<RunServices, "fetch" | "clock">,
): Promise<Caller> {
  const keys = await jwksKeys(config.jwksUrl, kidOf(token), services);
  const verify = jwk({
    keys,
    alg: [...config.algorithms],
    verification: { iss: config.issuer, aud: config.audience },
  });
  let payload: unknown;
  try {
    // Only the check runs inside: the routes run after, so their errors are never taken for a bad token.
    await verify(c, async () => {
      payload = c.get("jwtPayload");
    });
  } catch (error) {
    if (!(error instanceof HTTPException)) throw error;
    const name = error.cause instanceof Error ? error.cause.name : "";
    throw unauthorized(`Invalid bearer token: ${REASONS[name] ?? "it could not be verified"}.`);
  }
  const claims = ClaimsSchema.safeParse(payload);
  if (!claims.success)
    throw unauthorized(
      `Invalid bearer token: it has ${claims.error.issues.map((i) => i.message).join(", ")}.`,
    );
  return callerFrom(claims.data, config.appsClaim);
}
