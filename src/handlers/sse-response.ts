import type { Context, Env } from "hono";
import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";

/**
 * ADK's SSE frames of one event: an event with content parts and an `artifactDelta` goes out as two, a copy
 * with the delta cleared and then a copy without content, because ADK's dev UI renders artifacts from the
 * action-only event (ADK-SEMANTICS §6.1, H05). Only the original is stored. A request naming a
 * `functionCallEventId` gets it whole, as ADK does.
 */
export function sseFrames(event: Event, functionCallEventId: string | undefined): Event[] {
  const parts = event.content?.parts ?? [];
  if (functionCallEventId || Object.keys(event.actions.artifactDelta).length === 0 || parts.length === 0)
    return [event];
  const { content: _content, ...actionOnly } = event;
  return [{ ...event, actions: { ...event.actions, artifactDelta: {} } }, actionOnly];
}

/**
 * One event's frames as text. A stored event's last frame carries its id as the SSE `id`, so a client
 * whose stream drops reconnects with `Last-Event-ID` (`GET …/invocations/:invocation/stream`) and gets
 * what followed it; partial events are never stored and carry none.
 */
function framesText(event: Event, functionCallEventId: string | undefined): string {
  const frames = sseFrames(event, functionCallEventId);
  let text = "";
  for (const [i, frame] of frames.entries()) {
    const id = !event.partial && i === frames.length - 1 ? event.id : undefined;
    // An id with a line break would end the frame early: refused, as Hono's `writeSSE` refuses it.
    if (id !== undefined && /[\r\n]/.test(id)) throw new Error('id must not contain "\\r" or "\\n"');
    text += `data: ${JSON.stringify(frame)}\n${id === undefined ? "" : `id: ${id}\n`}\n`;
  }
  return text;
}

/** The `data:` frame of a failure no stored event recorded (ADK H04). */
function errorFrame(error: unknown): string {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const details = error instanceof BatonError ? { error_details: { code: error.code } } : {};
  return `data: ${JSON.stringify({ error: detail, ...details })}\n\n`;
}

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
  c.header("Transfer-Encoding", "chunked");
  c.header("Content-Type", "text/event-stream");
  c.header("Cache-Control", "no-cache");
  c.header("Connection", "keep-alive");
  return c.newResponse(body);
}
