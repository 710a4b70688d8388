import { SSE_HEADERS } from "@a2a-js/sdk";

/** How a binding writes a stream's events and its errors (JSON-RPC and HTTP+JSON differ only here). */
export interface SseFraming<T> {
  /** One event as SSE text (`data: …\n\n`). */
  frame(item: T): string;
  /** The answer to an error before the first event: no stream has been opened yet. */
  failedBeforeFirst(error: unknown): Response;
  /** The stream's last frame, as SSE text, for an error after the first event. */
  failedAfterFirst(error: unknown): string;
}

/**
 * `events` as an SSE response. The first event is awaited before answering, so an error before it gets the
 * binding's own answer; later events are pulled as the client reads, and a client that leaves returns the
 * generator (the turn behind it carries on detached, as every turn does).
 */
export async function sseResponse<T>(events: AsyncGenerator<T>, framing: SseFraming<T>): Promise<Response> {
  let first: IteratorResult<T>;
  try {
    first = await events.next();
  } catch (error) {
    return framing.failedBeforeFirst(error);
  }
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(encoder.encode(framing.frame(first.value)));
    },
    async pull(controller) {
      try {
        const next = await events.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(framing.frame(next.value)));
      } catch (error) {
        controller.enqueue(encoder.encode(framing.failedAfterFirst(error)));
        controller.close();
      }
    },
    async cancel() {
      await events.return(undefined);
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
