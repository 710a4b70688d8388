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

/** The run's `fetch`: the one its services carry, else the global one. */
export function runFetch(ctx: InvocationContext): typeof fetch {
  const services: object = ctx.services;
  if ("fetch" in services && typeof services.fetch === "function") {
    // SAFETY: a run service named `fetch` is the port's fetch (same signature by contract).
    return services.fetch as typeof fetch;
  }
  return (input, init) => fetch(input, init);
}

/** The KV card cache when the run's env has an `AGENT_CARDS` namespace, else `undefined`. */
export function kvCacheOf(ctx: InvocationContext): CardCache | undefined {
  const kv = ctx.services.modelEnv[AGENT_CARDS_BINDING];
  return isKv(kv) ? kvCardCache(kv) : undefined;
}
