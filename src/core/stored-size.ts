import type { Event } from "./event.js";
import { memoized } from "./memo.js";

const STORED_BYTES = Symbol("stored bytes");

/**
 * The UTF-8 bytes of a stored event's JSON: what its store counted when it wrote the row, when it said
 * (`keepStoredBytes`), else `measure(event)`. Kept with the event (its memo slot), so it is counted once.
 */
export const storedBytes = (event: Event, measure: (event: Event) => number): number =>
  memoized(event, STORED_BYTES, () => measure(event));

/**
 * Keeps what a store counted writing `event` (a Durable Object serialises every row it stores), so no
 * reader serialises the event again to count it. Kept only on an event with a memo slot (`frozenWithMemo`).
 */
export function keepStoredBytes(event: Event, bytes: number): void {
  memoized(event, STORED_BYTES, () => bytes);
}
