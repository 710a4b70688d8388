import { BatonError } from "./errors.js";
import type { Event } from "./event.js";

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
export function framesText(event: Event, functionCallEventId: string | undefined): string {
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
export function errorFrame(error: unknown): string {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const details = error instanceof BatonError ? { error_details: { code: error.code } } : {};
  return `data: ${JSON.stringify({ error: detail, ...details })}\n\n`;
}
