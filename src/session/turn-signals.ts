import type { Event } from "../core/event.js";
import { WaitingLine } from "./waiting-line.js";

/** The turn that holds a session's lease, as the store that admitted it knows it. */
export interface RunningTurn {
  lease: string;
  invocationId: string;
  /** The app's root agent: the author of the turn's cancel event when none of its agents spoke yet. */
  agent: string | undefined;
}

/** Canceled leases remembered (their late appends are refused `turn_canceled`); older ones lapse anyway. */
const CANCELED_KEPT = 16;

/**
 * What a session's store knows in memory about its turns beyond the lease row: which turn runs, which
 * leases were canceled (and the event that recorded it), who waits to hear of a cancel (the running turn's
 * watch), and who waits in line for the session (double-texting's waiting modes, `WaitingLine`). One per session: a Durable
 * Object holds its own, the in-memory store one per session it keeps. Plain data and callbacks only.
 */
export class TurnSignals {
  #running: RunningTurn | null = null;
  readonly #canceled = new Map<string, Event>();
  readonly #watchers = new Map<string, Set<(event: Event | null) => void>>();
  /** Waiting turns in arrival order; each is woken to look again when the session may have come free. */
  readonly line = new WaitingLine();

  get running(): RunningTurn | null {
    return this.#running;
  }

  /** How many turns wait in line for the session. */
  get waiting(): number {
    return this.line.length;
  }

  began(turn: RunningTurn): void {
    this.#running = turn;
  }

  /** The turn of `lease` ended (its lease released): its watchers hear `null`, the line looks again. */
  ended(lease: string): void {
    if (this.#running?.lease === lease) this.#running = null;
    this.#tell(lease, null);
    this.line.wake();
  }

  /** The cancel event of a canceled `lease`, if it was canceled. */
  canceled(lease: string | undefined): Event | undefined {
    return lease === undefined ? undefined : this.#canceled.get(lease);
  }

  /** Records that `lease`'s turn was canceled by `event`; its watchers hear the event, the line looks again. */
  cancel(lease: string, event: Event): void {
    this.#canceled.set(lease, event);
    for (const old of this.#canceled.keys()) {
      if (this.#canceled.size <= CANCELED_KEPT) break;
      this.#canceled.delete(old);
    }
    if (this.#running?.lease === lease) this.#running = null;
    this.#tell(lease, event);
    this.line.wake();
  }

  /**
   * Resolves with the cancel event once `lease`'s turn is canceled, or `null` once it ends otherwise (at
   * once for a lease that is neither running nor canceled).
   */
  watch(lease: string): Promise<Event | null> {
    const canceled = this.#canceled.get(lease);
    if (canceled) return Promise.resolve(canceled);
    if (this.#running?.lease !== lease) return Promise.resolve(null);
    return new Promise((resolve) => {
      const set = this.#watchers.get(lease) ?? new Set();
      set.add(resolve);
      this.#watchers.set(lease, set);
    });
  }

  #tell(lease: string, event: Event | null): void {
    const set = this.#watchers.get(lease);
    this.#watchers.delete(lease);
    for (const resolve of set ?? []) resolve(event);
  }
}
