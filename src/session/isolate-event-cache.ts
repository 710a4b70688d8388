import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { frozenWithMemo } from "../core/memo.js";
import type { HeldRows, WindowRows } from "./held-rows.js";

/** One session's window as the isolate holds it: frozen events with consecutive seqs from `firstSeq`. */
export interface HeldWindow {
  readonly epoch: string;
  readonly firstSeq: number;
  readonly events: readonly Event[];
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
 * A Worker isolate's copy of the last window `beginTurn` read of each session (decision 025), so that a
 * turn asks its session's object only for the events after what the isolate holds instead of the whole
 * window over RPC. Stored events are immutable, so a held event stays true while its session's epoch
 * lasts: the object checks the epoch and the last held event before it answers with only the newer ones.
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

  /** Sessions held now, and their bytes of event JSON together. */
  get usage(): { sessions: number; bytes: number } {
    return { sessions: this.#windows.size, bytes: this.#bytes };
  }

  /** What is held of `name`'s log, to tell its object (`null`: nothing), and the window it describes. */
  held(name: string): { held: HeldRows | null; window?: HeldWindow } {
    const window = this.#windows.get(name);
    const last = window?.events.at(-1);
    if (!window || !last) return { held: null };
    const { epoch, firstSeq } = window;
    const toSeq = firstSeq + window.events.length - 1;
    return { held: { epoch, fromSeq: firstSeq, toSeq, lastId: last.id }, window };
  }

  /**
   * The window's events from the object's answer, in a fresh array: the reused events of `window` (what
   * `held` returned), then `events`, frozen with a memo slot (decision 024), so what a turn derives from a
   * held event is kept for the next turns of this isolate. The window becomes what is held of `name`. An answer that
   * reuses events `window` does not hold (not an answer to this cache's `held`) is a `storage_error`.
   */
  assemble(name: string, window: HeldWindow | undefined, answer: WindowRows, events: Event[]): Event[] {
    const { epoch, firstSeq, reusedTo } = answer;
    for (const event of events) frozenWithMemo(event);
    let all = events;
    if (reusedTo !== undefined) {
      const from = firstSeq - (window?.firstSeq ?? Number.NaN);
      if (
        window?.epoch !== epoch ||
        !(from >= 0) ||
        window.firstSeq + window.events.length - 1 !== reusedTo
      ) {
        this.forget(name);
        throw new BatonError(
          "storage_error",
          `The answer for ${name} reuses events this isolate does not hold`,
        );
      }
      all = window.events.slice(from).concat(events);
    }
    this.#hold(name, { epoch, firstSeq, events: all, bytes: answer.bytes });
    return [...all];
  }

  /** Drops what is held of `name` (its session was deleted). */
  forget(name: string): void {
    const window = this.#windows.get(name);
    if (!window) return;
    this.#bytes -= window.bytes;
    this.#windows.delete(name);
  }

  #hold(name: string, window: HeldWindow): void {
    this.forget(name);
    if (window.events.length === 0 || window.bytes > this.#limits.bytes) return;
    this.#windows.set(name, window);
    this.#bytes += window.bytes;
    for (const oldest of this.#windows.keys()) {
      if (this.#bytes <= this.#limits.bytes && this.#windows.size <= this.#limits.sessions) break;
      this.forget(oldest);
    }
  }
}
