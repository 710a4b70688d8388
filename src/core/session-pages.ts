import type { Event } from "./event.js";
import type { Session } from "./session.js";

/**
 * Which page of a user's sessions to list (ADK TS's `listSessions` takes `limit` and `order`, adk-js #331;
 * the token is Baton's, so a walk through the pages stays stable while sessions are added, decision 046).
 */
export interface SessionPageRequest {
  /** At most this many sessions (default `SESSION_PAGE_LIMITS.defaultSize`, at most `maxSize`). */
  pageSize?: number;
  /** The `nextPageToken` of the page before; absent for the first page. */
  pageToken?: string;
  /**
   * By `lastUpdateTime`: `desc` (the default) lists the most recently updated first, `asc` the least. A
   * token carries its order: a later page keeps the order of the first.
   */
  order?: "asc" | "desc";
}

/** One page of sessions (without events, with merged state) and the token of the next, if any. */
export interface SessionPage {
  sessions: Session[];
  /** Absent on the last page. */
  nextPageToken?: string;
}

/** Which page of one session's events to read, oldest first (`SessionStore.listEvents`). */
export interface EventPageRequest {
  /** At most this many events (default and maximum in `EVENT_PAGE_LIMITS`). */
  pageSize?: number;
  pageToken?: string;
}

export interface EventPage {
  events: Event[];
  nextPageToken?: string;
}

/**
 * The bounds of a listing. A page also ends early once its sessions' state passes `maxStateBytes` (at
 * least one session is listed), so no answer grows with the size of what users store.
 */
export const SESSION_PAGE_LIMITS = {
  defaultSize: 100,
  maxSize: 1000,
  maxStateBytes: 1024 * 1024,
} as const;

/**
 * The bounds of reading events: a `GET` of a session returns at most `maxPerRead` events (the newest its
 * window selects); the whole log is read in pages of `GET …/events`, each at most `maxPageSize` events and,
 * past its first event, `maxPageBytes` of event JSON.
 */
export const EVENT_PAGE_LIMITS = {
  maxPerRead: 10_000,
  defaultPageSize: 1000,
  maxPageSize: 10_000,
  maxPageBytes: 4 * 1024 * 1024,
} as const;

/** A requested page size within `[1, max]`, `fallback` when none was asked for. */
export const pageSizeOf = (asked: number | undefined, fallback: number, max: number): number =>
  asked === undefined ? fallback : Math.min(max, Math.max(1, Math.floor(asked)));
