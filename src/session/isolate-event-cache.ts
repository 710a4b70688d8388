import type { Event } from "../core/event.js";
import { deepFreeze } from "./frozen.js";
import { type HeldRows, indexOfSeq, type WindowRows } from "./held-rows.js";
import type { CachedRow } from "./session-cache.js";

/** One session's rows as the isolate holds them: a contiguous run of its log, oldest first, frozen. */
export interface HeldWindow {
  readonly epoch: string;
  readonly rows: readonly CachedRow[];
  readonly bytes: number;
}

export interface IsolateEventCacheLimits {
  /** Sessions held at most; the least recently used go first. */
  sessions: number;
  /** Bytes of event JSON held at most, all sessions together; a window larger than this is not held. */
  bytes: number;
}

/** The default bounds of a Worker isolate's cache: small next to the isolate's 128 MB (PLATFORM.md §4.2). */
export const ISOLATE_EVENT_CACHE_LIMITS: IsolateEventCacheLimits = { sessions: 64, bytes: 8 * 2 ** 20 };

/**
 * A Worker isolate's copy of the last window `beginTurn` read of each session (decision 024), so that a
 * turn asks its session's object only for the events after what the isolate holds instead of the whole
 * window over RPC. Stored events are immutable, so a held row stays true while its session's epoch lasts:
 * the object checks the epoch and the last held row before it answers with only the newer events.
 * Entries are never changed in place (a turn that began from one keeps reading it); bounded by sessions
 * and bytes, least recently used dropped first.
 */
export class IsolateEventCache {
  readonly #limits: IsolateEventCacheLimits;
  /** In least- to most-recently used order. */
  readonly #windows = new Map<string, HeldWindow>();
  #bytes = 0;

  constructor(limits: IsolateEventCacheLimits = ISOLATE_EVENT_CACHE_LIMITS) {
    this.#limits = limits;
  }

  /** Sessions held now. */
  get size(): number {
    return this.#windows.size;
  }

  /** Bytes of event JSON held now, all sessions together. */
  get bytes(): number {
    return this.#bytes;
  }

  /** What is held of `name`'s log, to tell its object (`null`: nothing), and the window it describes. */
  held(name: string): { held: HeldRows | null; window?: HeldWindow } {
    const window = this.#windows.get(name);
    const [first, last] = [window?.rows[0], window?.rows.at(-1)];
    if (!window || !first || !last) return { held: null };
    return {
      held: { epoch: window.epoch, fromSeq: first.seq, toSeq: last.seq, lastId: last.event.id },
      window,
    };
  }

  /**
   * The window's events from the object's answer: the reused rows of `window` (what `held` returned),
   * then `events`, frozen. The answer becomes what is held of `name`. `undefined` when the answer reuses
   * rows `window` does not hold (not an answer to this cache's `held`); nothing is held of `name` then.
   */
  assemble(
    name: string,
    window: HeldWindow | undefined,
    answer: WindowRows,
    events: Event[],
  ): Event[] | undefined {
    const sent = events.map(
      (event, i): CachedRow => ({
        seq: answer.seqs[i] ?? Number.NaN,
        bytes: answer.bytes[i] ?? 0,
        event: deepFreeze(event),
      }),
    );
    const reused = answer.reuse ? reusedRows(window, answer.epoch, answer.reuse) : [];
    if (!reused) {
      this.forget(name);
      return undefined;
    }
    const rows = reused.length === 0 ? sent : reused.concat(sent);
    this.#hold(name, { epoch: answer.epoch, rows, bytes: sumBytes(rows) });
    return rows.map((row) => row.event);
  }

  /** Drops what is held of `name` (its session was deleted, or an answer could not be used). */
  forget(name: string): void {
    const window = this.#windows.get(name);
    if (!window) return;
    this.#bytes -= window.bytes;
    this.#windows.delete(name);
  }

  #hold(name: string, window: HeldWindow): void {
    this.forget(name);
    if (window.rows.length === 0 || window.bytes > this.#limits.bytes) return;
    this.#windows.set(name, window);
    this.#bytes += window.bytes;
    for (const oldest of this.#windows.keys()) {
      if (this.#bytes <= this.#limits.bytes && this.#windows.size <= this.#limits.sessions) break;
      this.forget(oldest);
    }
  }
}

/** The held rows `fromSeq`..`toSeq` of `window`, or `undefined` when it does not hold exactly those. */
function reusedRows(
  window: HeldWindow | undefined,
  epoch: string,
  range: { fromSeq: number; toSeq: number },
): readonly CachedRow[] | undefined {
  if (!window || window.epoch !== epoch || window.rows.at(-1)?.seq !== range.toSeq) return undefined;
  const from = indexOfSeq(window.rows, range.fromSeq);
  return from < 0 ? undefined : window.rows.slice(from);
}

const sumBytes = (rows: readonly CachedRow[]): number => {
  let bytes = 0;
  for (const row of rows) bytes += row.bytes;
  return bytes;
};
