import type { InvocationContext } from "../../agents/invocation-context.js";
import { type CardCache, type CardKvNamespace, kvCardCache } from "./card-cache.js";

/** The KV binding that caches agent cards across isolates (wrangler `[[kv_namespaces]]`). */
export const AGENT_CARDS_BINDING = "AGENT_CARDS";

const isKv = (value: unknown): value is CardKvNamespace =>
  typeof value === "object" &&
  value !== null &&
  "get" in value &&
  typeof value.get === "function" &&
  "put" in value &&
  typeof value.put === "function";

/** The run's `fetch` (the run services' port). */
export const runFetch = (ctx: InvocationContext): typeof fetch => ctx.services.fetch;

/** The KV card cache when the run's env has an `AGENT_CARDS` namespace, else `undefined`. */
export function kvCacheOf(ctx: InvocationContext): CardCache | undefined {
  const kv = ctx.services.env[AGENT_CARDS_BINDING];
  return isKv(kv) ? kvCardCache(kv) : undefined;
}
