/** How long a card stays fresh when its response says nothing (ADK-SEMANTICS §5.1; issue 7). */
export const DEFAULT_CARD_TTL_MS = 5 * 60 * 1000;

/**
 * The freshness lifetime a `Cache-Control` header grants, in ms: `no-store`/`no-cache` give 0,
 * `s-maxage` wins over `max-age`, and no usable directive gives the 5-minute default.
 */
export function cardTtlMs(cacheControl: string | null): number {
  if (cacheControl === null) return DEFAULT_CARD_TTL_MS;
  const directives = new Map(
    cacheControl.split(",").map((d) => {
      const [k = "", v] = d.trim().toLowerCase().split("=");
      return [k, v?.replace(/"/g, "")] as const;
    }),
  );
  if (directives.has("no-store") || directives.has("no-cache")) return 0;
  for (const name of ["s-maxage", "max-age"]) {
    const seconds = Number(directives.get(name));
    if (directives.has(name) && Number.isInteger(seconds) && seconds >= 0) return seconds * 1000;
  }
  return DEFAULT_CARD_TTL_MS;
}
