import type { Event } from "../core/event.js";
import type { EventWindow } from "../core/session-store.js";
import type { StateMap } from "../core/state.js";
import { selectWindow, windowLimit } from "./event-window.js";
import type { Lease } from "./lease.js";

/** The session row as the object keeps it. */
export interface SessionMeta {
  appName: string;
  userId: string;
  sessionId: string;
  lastUpdateTime: number;
  lease: Lease | null;
  /** New each time the session is created: rows of one epoch are never rewritten, only appended to. */
  epoch: string;
}

/** One event row, checked once: the event, its append sequence and its JSON size (the budget's unit). */
export interface CachedRow {
  seq: number;
  event: Event;
  bytes: number;
}

/**
 * What a `SessionObject` keeps of its session while it lives: the session row, the session-scoped state and
 * the newest events, each row checked with zod once when it was read or written. The events are a suffix of
 * the log (oldest dropped first under the budget); `complete` says whether it is the whole log.
 */
export class SessionCache {
  readonly meta: SessionMeta;
  readonly state: StateMap;
  #rows: CachedRow[] = [];
  #bytes = 0;
  #complete = false;

  constructor(meta: SessionMeta, state: StateMap) {
    this.meta = meta;
    this.state = state;
  }

  /** The JSON bytes of the cached events: what the budgets count. */
  get bytes(): number {
    return this.#bytes;
  }

  /** How many of the newest events are cached. */
  get size(): number {
    return this.#rows.length;
  }

  /** The sequence number below which events are not cached (Infinity while none is). */
  get oldestSeq(): number {
    return this.#rows[0]?.seq ?? Number.POSITIVE_INFINITY;
  }

  get complete(): boolean {
    return this.#complete;
  }

  /** The window's events when the cache holds all it selects, else `undefined` (read SQL). */
  window(window: EventWindow): Event[] | undefined {
    if (this.#complete && window.afterTimestamp !== undefined)
      return selectWindow(
        this.#rows.map((row) => row.event),
        window,
      );
    return this.rows(window)?.map((row) => row.event);
  }

  /**
   * The rows of a count window (no `afterTimestamp`) when the cache holds all it selects, else `undefined`.
   * A count window is always the newest rows of the log, a contiguous run of it.
   */
  rows(window: EventWindow): CachedRow[] | undefined {
    // Timestamps are not ordered by seq, so a time filter needs the whole log.
    if (window.afterTimestamp !== undefined) return undefined;
    const limit = windowLimit(window);
    if (limit < 0) return this.#complete ? [...this.#rows] : undefined;
    if (limit > this.#rows.length) return this.#complete ? [...this.#rows] : undefined;
    return limit === 0 ? [] : this.#rows.slice(-limit);
  }

  /** Adds older rows (oldest first) read from SQL; `reachedStart` when nothing older exists. */
  prepend(rows: readonly CachedRow[], reachedStart: boolean): void {
    this.#rows = [...rows, ...this.#rows];
    for (const row of rows) this.#bytes += row.bytes;
    this.#complete = reachedStart;
  }

  /** Adds the row just written, the newest of the log. */
  append(row: CachedRow): void {
    this.#rows.push(row);
    this.#bytes += row.bytes;
  }

  /** Drops the oldest events until the cached ones fit in `budget` bytes. */
  trim(budget: number): void {
    let drop = 0;
    while (this.#bytes > budget && drop < this.#rows.length) this.#bytes -= this.#rows[drop++]?.bytes ?? 0;
    if (drop === 0) return;
    this.#rows = this.#rows.slice(drop);
    this.#complete = false;
  }
}
