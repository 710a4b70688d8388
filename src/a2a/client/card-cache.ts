import * as z from "zod";

/** The slice of a Workers KV namespace the card cache uses (binding `AGENT_CARDS`). */
export interface CardKvNamespace {
  get(key: string, type: "text"): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
}

/** A fetched card with the time (ms since the epoch) it stops being fresh. */
export interface CachedCard {
  card: unknown;
  expiresAt: number;
}

const CachedCardSchema = z.object({ card: z.unknown(), expiresAt: z.number() });

/** Where resolved cards are kept between turns and isolates. */
export interface CardCache {
  get(url: string, now: number): Promise<unknown | undefined>;
  put(url: string, entry: CachedCard, now: number): Promise<void>;
}

// KV refuses an `expirationTtl` under 60 s; fresher entries are checked against `expiresAt` on read.
const KV_MIN_TTL_S = 60;
const keyOf = (url: string) => `agent-card:${url}`;

/** Cards in Workers KV: shared by every isolate, expired by KV and by the stored `expiresAt`. */
export function kvCardCache(kv: CardKvNamespace): CardCache {
  return {
    async get(url, now) {
      const raw = await kv.get(keyOf(url), "text");
      if (raw === null) return undefined;
      const parsed = CachedCardSchema.safeParse(safeJson(raw));
      return parsed.success && parsed.data.expiresAt > now ? parsed.data.card : undefined;
    },
    async put(url, entry, now) {
      const ttl = Math.max(KV_MIN_TTL_S, Math.ceil((entry.expiresAt - now) / 1000));
      await kv.put(keyOf(url), JSON.stringify(entry), { expirationTtl: ttl });
    },
  };
}

/** Cards in this isolate's memory: the fallback when no `AGENT_CARDS` binding is configured. */
export function memoryCardCache(): CardCache {
  const entries = new Map<string, CachedCard>();
  return {
    async get(url, now) {
      const entry = entries.get(url);
      if (entry && entry.expiresAt > now) return entry.card;
      entries.delete(url);
      return undefined;
    },
    async put(url, entry) {
      entries.set(url, entry);
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // a corrupt entry is a miss: the card is fetched again
  }
}
