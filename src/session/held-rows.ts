import type { Event } from "../core/event.js";
import type { CachedRow } from "./session-cache.js";

/**
 * What a caller (a Worker isolate's `IsolateEventCache`) already holds of a session's log: the rows with
 * seq `fromSeq` to `toSeq`, a contiguous run of the log of epoch `epoch`, the last of them event `lastId`.
 */
export interface HeldRows {
  epoch: string;
  fromSeq: number;
  toSeq: number;
  lastId: string;
}

/**
 * A window's events as the object sent them to a caller that may hold part of it: the seq and JSON size of
 * each event sent, in order, and, when the caller's rows were reused, which of them begin the window.
 */
export interface WindowRows {
  epoch: string;
  seqs: number[];
  bytes: number[];
  /** The window is the caller's held rows `fromSeq`..`toSeq`, then the events sent. */
  reuse?: { fromSeq: number; toSeq: number };
}

/** The index of the row with seq `seq` in rows ordered by seq, or -1. */
export function indexOfSeq(rows: readonly CachedRow[], seq: number): number {
  let [low, high] = [0, rows.length - 1];
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = rows[mid]?.seq ?? Number.NaN;
    if (at === seq) return mid;
    if (at < seq) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * The answer to a window (its rows, oldest first) for a caller holding `held`: only the rows after what it
 * holds when its rows are of this epoch, still in the log (the row at `toSeq` is `lastId`) and the window
 * begins among them; otherwise every row of the window.
 */
export function windowAnswer(
  rows: readonly CachedRow[],
  epoch: string,
  held: HeldRows | undefined,
): { events: Event[]; rows: WindowRows } {
  const first = rows[0]?.seq;
  const at = held === undefined ? -1 : indexOfSeq(rows, held.toSeq);
  const reusable =
    held !== undefined &&
    first !== undefined &&
    held.epoch === epoch &&
    held.fromSeq <= first &&
    rows[at]?.event.id === held.lastId;
  const sent = reusable ? rows.slice(at + 1) : rows;
  const answer: WindowRows = {
    epoch,
    seqs: sent.map((row) => row.seq),
    bytes: sent.map((row) => row.bytes),
    ...(reusable ? { reuse: { fromSeq: first, toSeq: held.toSeq } } : {}),
  };
  return { events: sent.map((row) => row.event), rows: answer };
}
