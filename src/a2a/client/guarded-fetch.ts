import { ResponseTooLarge, readCapped } from "./read-capped.js";

/** The largest reply Baton accepts from a peer: per JSON reply, and per SSE event (the SDK's own cap). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** What one call's fetches saw, for the error event: the last HTTP error status. */
export interface FetchProbe {
  status?: number;
  /** Set when the connection failed: refused, reset, or dropped while the body was read. */
  networkError?: boolean;
}

/** The body as it arrives, with a read failure (a dropped connection) recorded on the probe. */
function watched(body: ReadableStream<Uint8Array>, probe: FetchProbe): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        probe.networkError = true;
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
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
    let response: Response;
    try {
      response = await base(input, { ...init, headers: merged });
    } catch (error) {
      probe.networkError = !(init?.signal?.aborted ?? false);
      throw error;
    }
    if (!response.ok) probe.status = response.status;
    if (response.headers.get("Content-Type")?.startsWith("text/event-stream") && response.body) {
      const { status, statusText, headers } = response;
      return new Response(watched(response.body, probe), { status, statusText, headers });
    }
    const body = await readCapped(response, MAX_RESPONSE_BYTES).catch((error: unknown) => {
      if (!(error instanceof ResponseTooLarge)) probe.networkError = true;
      throw error;
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
