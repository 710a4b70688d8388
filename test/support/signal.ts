/**
 * A one-shot signal between a test and a turn that may run in another workerd context. Turns run in their
 * session's Durable Object (decision 040), tests in their own context: a promise resolved in one context
 * runs its waiters' continuations in that context, where the waiter's streams and requests are not its own
 * ("Cannot perform I/O on behalf of a different Durable Object"). Here the signal is plain data, and each
 * `promise` read polls it on the reader's own timers, so every waiter resumes in its own context. In Node
 * it behaves as a deferred promise that resolves within a few milliseconds of `resolve`.
 */
export function signal<T = void>() {
  let settled: { value: T } | undefined;
  return {
    /** Settles the signal (the first value wins); synchronous and free of I/O, callable from any context. */
    resolve(value: T): void {
      settled ??= { value };
    },
    /** Whether `resolve` was called. */
    get done(): boolean {
      return settled !== undefined;
    },
    /** A promise of the value, made in (and resolved on the timers of) the context that reads it. */
    get promise(): Promise<T> {
      return until(() => settled).then((s) => s.value);
    },
  };
}

/** How long a waiter polls before it gives up: far past any test's own timeout, so no poll outlives its run. */
const GIVE_UP_MS = 60_000;

/** Resolves with `read()`'s first defined answer, polling every `everyMs` (2) on the caller's timers. */
export async function until<T>(read: () => T | undefined | Promise<T | undefined>, everyMs = 2): Promise<T> {
  for (let waited = 0; waited < GIVE_UP_MS; waited += everyMs) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`Waited ${GIVE_UP_MS} ms for a signal that never came`);
}
