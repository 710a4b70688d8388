import type { Event } from "../core/event.js";
import { LineStream } from "../storage/feed-lines.js";

interface Follower {
  invocationId: string;
  push(event: Event): void;
  end(): void;
}

/**
 * Live followers of running invocations (a client that reconnects to a turn's stream, decision 028): each
 * gets, as NDJSON, the stored events it missed, then every event the turn stores after, until the turn
 * ends. Held in the session's memory beside the turn's signals; plain streams made per call, so nothing of
 * one caller's I/O is kept for another.
 */
export class InvocationFeeds {
  readonly #followers = new Map<string, Follower>();

  /**
   * The stream of `backlog` then, while `live`, each event `publish` gets for `invocationId` until `end`.
   * `followerId` names it for `unfollow` (a reader that stops early ends it from this side).
   */
  follow(invocationId: string, followerId: string, backlog: readonly Event[], live: boolean) {
    const lines = new LineStream<Event>(() => this.#followers.delete(followerId));
    for (const event of backlog) lines.send(event);
    if (!live) lines.close();
    else
      this.#followers.set(followerId, { invocationId, push: (e) => lines.send(e), end: () => lines.close() });
    return lines.readable;
  }

  /** A stored event of a running turn, to its invocation's followers. */
  publish(event: Event): void {
    for (const follower of this.#followers.values())
      if (follower.invocationId === event.invocationId) follower.push(event);
  }

  /** The invocation's turn ended: its followers' streams close. */
  end(invocationId: string): void {
    for (const follower of [...this.#followers.values()])
      if (follower.invocationId === invocationId) follower.end();
  }

  unfollow(followerId: string): void {
    this.#followers.get(followerId)?.end();
  }
}

/**
 * What a reconnecting client missed of an invocation: its stored events that its stream showed (the user's
 * own events are not shown), after the one with id `after` (all of them when `after` is not among them).
 */
export function missedEvents(events: readonly Event[], invocationId: string, after?: string): Event[] {
  const shown = events.filter((e) => e.invocationId === invocationId && e.author !== "user");
  const at = after === undefined ? -1 : shown.findIndex((e) => e.id === after);
  return shown.slice(at + 1);
}
