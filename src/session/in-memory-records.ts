/**
 * What `InMemorySessionStore` keeps per session and how it keys the (app, user) pairs: the records of
 * the in-memory store, apart from what it does with them.
 */

import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import type { Clock, IdSource } from "../core/ids.js";
import type { SessionKey } from "../core/session.js";
import type { StateMap } from "../core/state.js";
import type { PushNotice } from "../core/task-store.js";
import type { TurnTrace } from "../core/trace.js";
import { InvocationFeeds } from "./invocation-feeds.js";
import type { Lease } from "./lease.js";
import { TurnSignals } from "./turn-signals.js";

export interface InMemorySessionStoreOptions {
  /** Judges lease expiry and stamps `lastUpdateTime` on create. Defaults to `Date.now`. */
  clock?: Clock;
  /** Generates session ids and lease tokens. Defaults to `crypto.randomUUID`. */
  ids?: IdSource;
  /** How long a turn's lease lives without an append. Defaults to 120 s. */
  leaseTtlMs?: number;
  /**
   * Gets each stored task write once per push config of its task: A2A push notifications in Node, where
   * there is no queue (`directPush` from `@baton-agents/core` delivers them with bounded retries).
   */
  onPush?: (notice: PushNotice) => void;
  /**
   * Keep each turn's trace (the last 50 turns of a session), for `listTraces` and the dev UI's trace view.
   * Off by default (decision 041): a Node process keeps only sessions, as ADK's in-memory session service
   * does, and a runner on a store that keeps no traces records none. A Durable Object store always keeps them.
   */
  traces?: boolean;
}

export interface StoredSession {
  id: string;
  /** Its place in creation order (a listing's tie-break). */
  seq: number;
  state: StateMap;
  events: Event[];
  eventIds: Set<string>;
  lastUpdateTime: number;
  lease: Lease | null;
  traces: TurnTrace[];
  /** The running turn, canceled leases, cancel watchers and waiting turns (as a session object keeps them). */
  signals: TurnSignals;
  feeds: InvocationFeeds;
}

/** The last pair's key: a turn's reads and writes ask for the same one several times. */
let lastScope = { appName: "", userId: "", key: "0:" };

/**
 * One string for an app and user pair, unambiguous (the app's length leads) and cheap: it is asked for on
 * every read and write, so the last one is kept (the same string again also keeps its hash for the map).
 */
export function scopeKey(appName: string, userId: string): string {
  if (lastScope.appName === appName && lastScope.userId === userId) return lastScope.key;
  const key = `${appName.length}:${appName}${userId}`;
  lastScope = { appName, userId, key };
  return key;
}

/** The app and user a `scopeKey` was made of. */
export function scopeOf(key: string): { appName: string; userId: string } {
  const colon = key.indexOf(":");
  const end = colon + 1 + Number(key.slice(0, colon));
  return { appName: key.slice(colon + 1, end), userId: key.slice(end) };
}

/** A session just created: no events, no lease, no traces. */
export const newStoredSession = (
  id: string,
  seq: number,
  state: StateMap,
  lastUpdateTime: number,
): StoredSession => ({
  id,
  seq,
  state,
  events: [],
  eventIds: new Set(),
  lastUpdateTime,
  lease: null,
  traces: [],
  signals: new TurnSignals(),
  feeds: new InvocationFeeds(),
});

/** The refusal of a canceled turn's later writes. */
export const canceledTurn = (key: SessionKey): BatonError =>
  new BatonError("turn_canceled", `The turn on session ${key.sessionId} was canceled; it stops here`);
