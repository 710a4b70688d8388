import type { Context } from "hono";
import type { Event } from "../core/event.js";

type Outcome = { done: false; event: Event } | { done: true; error?: unknown };

/**
 * Runs `turn` to its end on its own, whatever becomes of the response that shows it (decision 012): the
 * turn is drained into a buffer by a task the Worker keeps alive with `waitUntil`, and the returned
 * iterable replays that buffer. A reader that stops early (a client that disconnected) only stops
 * reading; the turn still stores every event and releases its lease. A turn failure is rethrown to the
 * reader after the events before it.
 */
export function detachTurn(c: Context, turn: AsyncGenerator<Event>): AsyncIterable<Event> {
  const buffer: Outcome[] = [];
  let wake = (): void => undefined;
  const push = (outcome: Outcome) => {
    buffer.push(outcome);
    wake();
  };
  const drained = (async () => {
    try {
      for await (const event of turn) push({ done: false, event });
      push({ done: true });
    } catch (error) {
      push({ done: true, error });
    }
  })();
  keepAlive(c, drained);
  return {
    async *[Symbol.asyncIterator]() {
      for (let read = 0; ; read++) {
        while (buffer.length <= read) await new Promise<void>((resolve) => (wake = resolve));
        const next = buffer[read];
        if (next === undefined || next.done) {
          if (next?.error !== undefined) throw next.error;
          return;
        }
        yield next.event;
      }
    },
  };
}

/**
 * `detachTurn` for a reader that wants every event at once (`POST /run`): the turn runs to its end on its
 * own as there, and the promise holds all its events, or the turn's failure. No per-event hand-over.
 */
export function drainTurn(c: Context, turn: AsyncGenerator<Event>): Promise<Event[]> {
  const drained = (async () => {
    const events: Event[] = [];
    for await (const event of turn) events.push(event);
    return events;
  })();
  keepAlive(c, drained);
  return drained;
}

/** `waitUntil` where the platform gives one (Workers); elsewhere (Node, `app.request`) the promise just runs. */
function keepAlive(c: Context, work: Promise<unknown>): void {
  let ctx: Pick<ExecutionContext, "waitUntil"> | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    ctx = undefined; // Hono throws when the runtime passed no execution context.
  }
  ctx?.waitUntil(work);
}
