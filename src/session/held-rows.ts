import type { Event } from "../core/event.js";
import type { CachedRow } from "./session-cache.js";

/**
 * What a caller (a Worker isolate's `IsolateEventCache`) already holds of a session's log: the events with
 * seq `fromSeq` to `toSeq` of epoch `epoch`, one per seq, the last of them event `lastId`.
 */
export interface HeldRows {
  epoch: string;
  fromSeq: number;
  toSeq: number;
  lastId: string;
}

/**
 * A window as the object sent it to a caller that may hold part of it: the seq of its first event, its JSON
 * bytes, and, when the caller's events were reused, the seq of the last of them: the window is then the
 * caller's events from `firstSeq` to `reusedTo`, followed by the events sent.
 */
export interface WindowRows {
  epoch: string;
  firstSeq: number;
  bytes: number;
  reusedTo?: number;
}

/**
 * The answer to a window (its rows, oldest first) for a caller holding `held`: only the rows after what it
 * holds when its events are of this epoch, the row at `toSeq` is still event `lastId` and the window begins
 * among them; otherwise every row. Seqs of one epoch have no gaps (rows are only appended, each with the
 * highest seq plus one), so both sides count positions by seq; were there a gap, the row at `toSeq` would
 * not be found there with its id, and every row would be sent.
 */
export function windowAnswer(
  rows: readonly CachedRow[],
  epoch: string,
  held: HeldRows | null | undefined,
): { events: Event[]; rows: WindowRows } {
  const firstSeq = rows[0]?.seq ?? 0;
  const at = held ? held.toSeq - firstSeq : -1;
  const last = rows[at];
  const reused =
    held?.epoch === epoch &&
    held.fromSeq <= firstSeq &&
    last?.seq === held.toSeq &&
    last.event.id === held.lastId
      ? held
      : undefined;
  let bytes = 0;
  for (const row of rows) bytes += row.bytes;
  const sent = reused ? rows.slice(at + 1) : rows;
  const answer: WindowRows = { epoch, firstSeq, bytes, ...(reused && { reusedTo: reused.toSeq }) };
  return { events: sent.map((row) => row.event), rows: answer };
}
