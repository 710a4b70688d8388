import type { Context, Env } from "hono";
import type { Event } from "../core/event.js";
import { errorFrame, framesText } from "../core/sse-frames.js";

const encoder = new TextEncoder();

/**
 * An SSE response of `events`, one frame (or two, `sseFrames`) per event, with the headers Hono's
 * `streamSSE` sets. Each event is read when the response pulls for more: one stream, where `streamSSE`
 * pipes a `TransformStream` into a second one. A client that leaves cancels it, which ends the iteration
 * (for a turn, its stream from the object); the turn carries on without it. A failure of the iteration
 * ends the stream with its `data:` error frame (`/run_sse`), or only logged, as `streamSSE` does it
 * (`errorFrames: false`).
 */
export function sseResponse<E extends Env>(
  c: Context<E>,
  events: AsyncIterable<Event>,
  options: { functionCallEventId?: string | undefined; errorFrames: boolean },
): Response {
  const { functionCallEventId } = options;
  const iterator = events[Symbol.asyncIterator]();
  let left = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text: string;
      let done = false;
      try {
        const next = await iterator.next();
        done = next.done === true;
        text = next.done ? "" : framesText(next.value, functionCallEventId);
      } catch (error) {
        // Agent failures arrive as stored error events; this is for what could not be stored.
        if (!options.errorFrames) console.error(error);
        text = options.errorFrames ? errorFrame(error) : "";
        done = true;
      }
      if (left) return;
      if (text !== "") controller.enqueue(encoder.encode(text));
      if (done) controller.close();
    },
    cancel() {
      left = true;
      // Not awaited: the iteration ends once the read it is in settles (a turn's next event).
      void iterator.return?.().catch(() => undefined);
    },
  });
  return sseBody(c, body);
}

/** An SSE response of frames already made (a turn its session object framed), with `streamSSE`'s headers. */
export function sseBody<E extends Env>(c: Context<E>, body: ReadableStream<Uint8Array>): Response {
  c.header("Transfer-Encoding", "chunked");
  c.header("Content-Type", "text/event-stream");
  c.header("Cache-Control", "no-cache");
  c.header("Connection", "keep-alive");
  return c.newResponse(body);
}
