import type { Event } from "../core/event.js";

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
 * watch), and who waits in line for the session (double-texting `enqueue`). One per session: a Durable
 * Object holds its own, the in-memory store one per session it keeps. Plain data and callbacks only.
 */
export class TurnSignals {
  #running: RunningTurn | null = null;
  readonly #canceled = new Map<string, Event>();
  readonly #watchers = new Map<string, Set<(event: Event | null) => void>>();
  /** Waiting turns in arrival order; each is woken to look again when the session may have come free. */
  readonly #line: { arrived: number; wake: () => void }[] = [];

  get running(): RunningTurn | null {
    return this.#running;
  }

  /** How many turns wait in line for the session. */
  get waiting(): number {
    return this.#line.length;
  }

  began(turn: RunningTurn): void {
    this.#running = turn;
  }

  /** The turn of `lease` ended (its lease released): its watchers hear `null`, the line looks again. */
  ended(lease: string): void {
    if (this.#running?.lease === lease) this.#running = null;
    this.#tell(lease, null);
    this.#wakeLine();
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
    this.#wakeLine();
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

  /**
   * Waits in line until this caller is first and `busyUntil()` says the session is free (`null`); a
   * number is when the current lease lapses, when the caller looks again if nothing woke it before.
   * Resolves with `leave`, which the caller calls once it took the session (or gave up), so the next in
   * line looks. Arrival order is kept: a later caller never takes the session before an earlier one. A
   * caller that first arrived in an earlier lifetime of the object (`arrived`) takes its place back.
   */
  async inLine(busyUntil: () => number | null, now: () => number, arrived = now()): Promise<() => void> {
    const place = { arrived, wake: (): void => undefined };
    const behind = this.#line.findIndex((other) => other.arrived > arrived);
    this.#line.splice(behind < 0 ? this.#line.length : behind, 0, place);
    const leave = () => {
      const at = this.#line.indexOf(place);
      if (at >= 0) this.#line.splice(at, 1);
      this.#wakeLine();
    };
    for (;;) {
      const until = this.#line[0] === place ? busyUntil() : Number.POSITIVE_INFINITY;
      if (until === null) return leave;
      await new Promise<void>((resolve) => {
        const timer = Number.isFinite(until)
          ? setTimeout(resolve, Math.max(1, until - now() + 1))
          : undefined;
        place.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  #tell(lease: string, event: Event | null): void {
    const set = this.#watchers.get(lease);
    this.#watchers.delete(lease);
    for (const resolve of set ?? []) resolve(event);
  }

  #wakeLine(): void {
    for (const place of [...this.#line]) place.wake();
  }
}
