import type { Context } from "hono";
import type { Event } from "../core/event.js";
import { waitUntilOf } from "./wait-until.js";

type Outcome = { done: false; event: Event } | { done: true; error?: unknown };

/**
 * Runs the turn `started` begins to its end on its own, whatever becomes of the response that shows it
 * (decision 012): the turn is drained into a buffer by a task the Worker keeps alive with `waitUntil`, from
 * the moment it begins, and the returned iterable replays that buffer. The task holds the start too: a
 * turn that waits in line for its session (double-texting `enqueue`) still runs when its client left
 * while it waited. A reader that stops early (a client that disconnected) only stops reading; the turn
 * still stores every event and releases its lease. A turn failure is rethrown to the reader after the
 * events before it; a refused start (400/404/409) rejects the returned promise, before any response.
 */
export async function detachTurn(
  c: Context,
  started: Promise<AsyncGenerator<Event>>,
): Promise<AsyncIterable<Event>> {
  const buffer: Outcome[] = [];
  let wake = (): void => undefined;
  const push = (outcome: Outcome) => {
    buffer.push(outcome);
    wake();
  };
  const drain = async (turn: AsyncGenerator<Event>) => {
    try {
      for await (const event of turn) push({ done: false, event });
      push({ done: true });
    } catch (error) {
      push({ done: true, error });
    }
  };
  // The start's refusal is the caller's (it rejects below); the kept-alive task only swallows it.
  keepAlive(
    c,
    started.then(drain, () => undefined),
  );
  await started;
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

/** `waitUntil` where the platform gives one (Workers); elsewhere (Node, `app.request`) the promise just runs. */
const keepAlive = (c: Context, work: Promise<unknown>): void => waitUntilOf(c)?.(work);
