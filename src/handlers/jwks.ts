import type { HonoJsonWebKey } from "hono/utils/jwt/jws";
import * as z from "zod";
import { BatonError } from "../core/errors.js";
import type { RunServices } from "../core/ports.js";

/** How long a fetched key set is used before it is fetched again. */
export const JWKS_TTL_MS = 5 * 60_000;
/** A token naming a key the cached set lacks refetches the set (key rotation), at most this often. */
export const JWKS_REFRESH_MS = 30_000;
const FETCH_TIMEOUT_MS = 5_000;

const JwksSchema = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), kid: z.string().optional() })),
});

interface CachedKeys {
  keys: HonoJsonWebKey[];
  fetchedAt: number;
}

/** Per isolate, by URL: one identity provider's key set serves every request the isolate handles. */
const cache = new Map<string, CachedKeys>();

type Services = Pick<RunServices, "fetch" | "clock">;

async function fetchKeys(url: string, services: Services): Promise<HonoJsonWebKey[]> {
  const unavailable = (why: string) =>
    new BatonError("auth_unavailable", `The identity provider's keys (${url}) could not be read: ${why}.`);
  let response: Response;
  try {
    response = await services.fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw unavailable(String(error));
  }
  if (!response.ok) throw unavailable(`HTTP ${response.status}`);
  const parsed = JwksSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw unavailable("the body is not a JWK set");
  // SAFETY: each key is a JSON object with a `kty`; crypto.subtle.importKey checks the rest when Hono uses it.
  return parsed.data.keys as HonoJsonWebKey[];
}

/**
 * The key set at `url`, fetched through the `fetch` port and kept `JWKS_TTL_MS`. When `kid` is not in
 * the cached set, the set is fetched again (no more than every `JWKS_REFRESH_MS`), so rotated keys work.
 * An unreadable key set is `auth_unavailable` (503): no token can be checked without it.
 */
export async function jwksKeys(
  url: string,
  kid: string | undefined,
  services: Services,
): Promise<HonoJsonWebKey[]> {
  const now = services.clock.now();
  const cached = cache.get(url);
  const fresh = cached !== undefined && now - cached.fetchedAt < JWKS_TTL_MS;
  const knowsKid = kid === undefined || cached?.keys.some((key) => key.kid === kid) === true;
  if (cached && fresh && (knowsKid || now - cached.fetchedAt < JWKS_REFRESH_MS)) return cached.keys;
  const keys = await fetchKeys(url, services);
  cache.set(url, { keys, fetchedAt: now });
  return keys;
}
