import { readCapped } from "./read-capped.js";

/** The largest reply Baton accepts from a peer: per JSON reply, and per SSE event (the SDK's own cap). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** What one call's fetches saw, for the error event: the last HTTP error status. */
export interface FetchProbe {
  status?: number;
}

/**
 * Baton's `fetch` as the SDK's transport sees it: the agent's extra headers added, a JSON reply read
 * with a size cap (SSE streams are capped per event by the SDK), and an HTTP error status recorded.
 */
export function guardedFetch(
  base: typeof fetch,
  headers: Readonly<Record<string, string>>,
  probe: FetchProbe,
): typeof fetch {
  return async (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [k, v] of Object.entries(headers)) if (!merged.has(k)) merged.set(k, v);
    const response = await base(input, { ...init, headers: merged });
    if (!response.ok) probe.status = response.status;
    if (response.headers.get("Content-Type")?.startsWith("text/event-stream")) return response;
    const body = await readCapped(response, MAX_RESPONSE_BYTES);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
