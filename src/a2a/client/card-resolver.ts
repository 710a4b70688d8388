import { type AgentCardJson, AgentCardJsonSchema, isAbsoluteUrl } from "../protocol/agent-card.js";
import type { CardCache } from "./card-cache.js";
import { cardTtlMs } from "./card-ttl.js";
import { readCapped } from "./read-capped.js";
import { RemoteCallError } from "./remote-call-error.js";

export interface CardResolveDeps {
  fetch: typeof fetch;
  cache: CardCache;
  now: () => number;
  signal?: AbortSignal | undefined;
}

const CARD_PATH = ".well-known/agent-card.json";
const LEGACY_CARD_PATH = ".well-known/agent.json"; // A2A 0.2
const MAX_CARD_BYTES = 1024 * 1024;

/** The URLs tried for a card, in order: the given one, then the 0.2 `agent.json` location. */
export function cardUrls(url: string): string[] {
  const parsed = new URL(url);
  if (parsed.pathname.endsWith("/agent-card.json")) {
    return [url, new URL("agent.json", parsed).href];
  }
  if (parsed.pathname.endsWith(".json")) return [url];
  const base = parsed.href.endsWith("/") ? parsed.href : `${parsed.href}/`;
  return [new URL(CARD_PATH, base).href, new URL(LEGACY_CARD_PATH, base).href];
}

const unavailable = (message: string, metadata: Record<string, unknown> = {}, cause?: unknown) =>
  new RemoteCallError(
    "A2A_CARD_UNAVAILABLE",
    `Failed to initialize remote A2A agent: ${message}`,
    metadata,
    cause === undefined ? undefined : { cause },
  );

/** Validates a card given as an object or read from a URL or the cache (0.3 or 1.0 shape). */
export function parseCard(raw: unknown, origin: string): AgentCardJson {
  const parsed = AgentCardJsonSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw unavailable(
    `the agent card from ${origin} is not an A2A 0.3 or 1.0 card (${issue?.message ?? "invalid"})`,
  );
}

/**
 * The card behind `source`: an object is validated as it is; a URL is served from the cache while fresh,
 * else fetched (falling back to the 0.2 path), validated and cached for its `Cache-Control` lifetime.
 * Throws `RemoteCallError` `A2A_CARD_UNAVAILABLE` when no valid card can be had.
 */
export async function resolveCard(source: string | object, deps: CardResolveDeps): Promise<AgentCardJson> {
  if (typeof source !== "string") return parseCard(source, "the agent's configuration");
  if (!isAbsoluteUrl(source) || !/^https?:$/.test(new URL(source).protocol)) {
    throw unavailable(`"${source}" is not an http(s) URL`);
  }
  const cached = await deps.cache.get(source, deps.now());
  if (cached !== undefined) return parseCard(cached, source);
  const failures: string[] = [];
  let lastStatus: number | undefined;
  for (const url of cardUrls(source)) {
    let response: Response;
    try {
      response = await deps.fetch(url, {
        headers: { Accept: "application/json" },
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
    } catch (error) {
      throw unavailable(`${url}: ${error instanceof Error ? error.message : String(error)}`, {}, error);
    }
    if (!response.ok) {
      await response.body?.cancel();
      lastStatus = response.status;
      failures.push(`${url} answered HTTP ${response.status}`);
      continue;
    }
    const text = await readCapped(response, MAX_CARD_BYTES).catch((error: unknown) => {
      throw unavailable(`${url}: ${error instanceof Error ? error.message : String(error)}`, {}, error);
    });
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw unavailable(`${url} did not answer JSON`, {}, error);
    }
    const card = parseCard(raw, url);
    const ttl = cardTtlMs(response.headers.get("Cache-Control"));
    if (ttl > 0) await deps.cache.put(source, { card: raw, expiresAt: deps.now() + ttl }, deps.now());
    return card;
  }
  throw unavailable(
    failures.join("; "),
    lastStatus === undefined ? {} : { "a2a:status_code": String(lastStatus) },
  );
}
