import type { Part } from "../core/content.js";
import type { Event } from "../core/event.js";
import type { WaitingMode } from "../core/session-store.js";

/** What became of a waiting message another turn decided for. */
export type LineVerdict = { kind: "joined"; invocationId: string } | { kind: "replaced" };

/** How a wait in line ended: this message took the session (`take`'s value), or a verdict. */
export type LineResult<T> = { kind: "taken"; value: T } | LineVerdict;

/** How one message waits. */
export interface LineRules {
  mode: WaitingMode;
  /** The turn begins only once no message arrived for this long (ms); 0 for none. */
  debounceMs: number;
  /**
   * Whether the session may be taken by a message that arrived at `arrived` and is first in line: `null`
   * when it is free, else when to look again (a lapsing lease, a poll) if nothing wakes the line before.
   */
  busyUntil(arrived: number): number | null;
  now(): number;
}

interface Place {
  event: Event;
  arrived: number;
  verdict?: LineVerdict;
  wake(): void;
}

/**
 * The messages waiting for a session (double-texting's waiting modes, decisions 028 and 047), in
 * arrival order. The first takes the session once it is free and the debounce window passed; under
 * `merge` the others in line at that moment join its turn; under `latest` a newcomer replaces all who
 * wait (`replaceAll`). Plain data and callbacks only: a Durable Object and the in-memory store each hold
 * one per session, and persist what they must around it.
 */
export class WaitingLine {
  readonly #places: Place[] = [];

  get length(): number {
    return this.#places.length;
  }

  /** Every message waiting now is replaced (`latest`): each hears `replaced`; answers their events. */
  replaceAll(): Event[] {
    const replaced = this.#places.splice(0);
    for (const place of replaced) {
      place.verdict = { kind: "replaced" };
      place.wake();
    }
    return replaced.map((place) => place.event);
  }

  /**
   * Waits in line with `event` (first come at `arrived`, which a caller back after a restart keeps) until
   * it is first, the session is free and the window passed; then `take` begins its turn at once, in the same
   * step, given the messages that join it (`merge`: all others in line, in arrival order). Once `take`
   * answers `began`, those hear `joined` with this event's invocation. A verdict another place reached
   * ends the wait with that verdict. A later message never takes the session before an earlier one.
   */
  async wait<T>(
    event: Event,
    arrived: number,
    rules: LineRules,
    take: (joined: readonly Event[]) => { value: T; began: boolean },
  ): Promise<LineResult<T>> {
    const place: Place = { event, arrived, wake: () => undefined };
    const behind = this.#places.findIndex((other) => other.arrived > arrived);
    this.#places.splice(behind < 0 ? this.#places.length : behind, 0, place);
    try {
      for (;;) {
        if (place.verdict) return place.verdict;
        const until = this.#places[0] === place ? this.#readyAt(place, rules) : Number.POSITIVE_INFINITY;
        if (until === null) return { kind: "taken", value: this.#take(place, rules, take) };
        await new Promise<void>((resolve) => {
          const timer = Number.isFinite(until)
            ? setTimeout(resolve, Math.max(1, until - rules.now() + 1))
            : undefined;
          place.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      const at = this.#places.indexOf(place);
      if (at >= 0) this.#places.splice(at, 1);
      this.wake();
    }
  }

  /** Every waiting message looks again (the session may have come free). */
  wake(): void {
    for (const place of [...this.#places]) place.wake();
  }

  #take<T>(place: Place, rules: LineRules, take: (joined: readonly Event[]) => { value: T; began: boolean }) {
    const joining = rules.mode === "merge" ? this.#places.filter((other) => other !== place) : [];
    const taken = take(joining.map((other) => other.event));
    if (!taken.began) return taken.value;
    for (const other of joining) {
      this.#places.splice(this.#places.indexOf(other), 1);
      other.verdict = { kind: "joined", invocationId: place.event.invocationId };
      other.wake();
    }
    return taken.value;
  }

  /** `null` when `place` (first) may take the session now, else when to look again. */
  #readyAt(place: Place, rules: LineRules): number | null {
    const busy = rules.busyUntil(place.arrived);
    if (busy !== null || rules.debounceMs <= 0) return busy;
    const newest = Math.max(...this.#places.map((other) => other.arrived));
    const quietAt = newest + rules.debounceMs;
    return quietAt <= rules.now() ? null : quietAt;
  }
}

/**
 * The one user event of messages merged for one turn (`merge`): the first's id, invocation, time and
 * metadata, every message's parts in arrival order, their state deltas applied in that order.
 */
export function mergedUserEvent(first: Event, joined: readonly Event[]): Event {
  if (joined.length === 0) return first;
  const parts: Part[] = [...(first.content?.parts ?? [])];
  const stateDelta = { ...first.actions.stateDelta };
  for (const event of joined) {
    parts.push(...(event.content?.parts ?? []));
    Object.assign(stateDelta, event.actions.stateDelta);
  }
  return {
    ...first,
    content: { role: first.content?.role ?? "user", parts },
    actions: { ...first.actions, stateDelta },
  };
}
