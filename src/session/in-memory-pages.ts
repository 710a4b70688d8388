/**
 * `InMemorySessionStore`'s pages, in the order and with the tokens and bounds of the Durable Object store's
 * (decision 046), so the one contract suite checks both.
 */
import type { Event } from "../core/event.js";
import {
  EVENT_PAGE_LIMITS,
  type EventPage,
  type EventPageRequest,
  pageSizeOf,
  SESSION_PAGE_LIMITS,
  type SessionPageRequest,
} from "../core/session-pages.js";
import { eventPageStart, eventPageToken, sessionPageStart, sessionPageToken } from "./page-token.js";

/** What the listing orders a session by: its `lastUpdateTime`, ties by its creation sequence. */
export interface Listed {
  lastUpdateTime: number;
  seq: number;
  /** Its session-scoped state's JSON length: what the page's state budget counts. */
  stateChars: number;
}

/** What a listing orders and counts of a stored session. */
export const listedOf = (s: { lastUpdateTime: number; seq: number; state: unknown }): Listed => ({
  lastUpdateTime: s.lastUpdateTime,
  seq: s.seq,
  stateChars: JSON.stringify(s.state).length,
});

/** The page `request` names of `sessions` (any order), and the token of the next. */
export function sessionPageOf<T extends Listed>(
  sessions: readonly T[],
  request: SessionPageRequest,
): { page: T[]; nextPageToken?: string } {
  const { order, after } = sessionPageStart(request);
  const size = pageSizeOf(request.pageSize, SESSION_PAGE_LIMITS.defaultSize, SESSION_PAGE_LIMITS.maxSize);
  const sign = order === "asc" ? 1 : -1;
  const compare = (a: { lastUpdateTime: number; seq: number }, b: { lastUpdateTime: number; seq: number }) =>
    sign * (a.lastUpdateTime - b.lastUpdateTime || a.seq - b.seq);
  const position = after && { lastUpdateTime: after.time, seq: after.seq };
  const rest = sessions.filter((s) => !position || compare(s, position) > 0).sort(compare);
  const page: T[] = [];
  let chars = 0;
  for (const session of rest) {
    if (page.length === size) break;
    if (page.length > 0 && chars + session.stateChars > SESSION_PAGE_LIMITS.maxStateBytes) break;
    page.push(session);
    chars += session.stateChars;
  }
  const last = page.at(-1);
  if (page.length === rest.length || !last) return { page };
  return { page, nextPageToken: sessionPageToken({ order, time: last.lastUpdateTime, seq: last.seq }) };
}

/** The page `request` names of a log, oldest first; an event's sequence is its 1-based place in the log. */
export function eventPageOf(events: readonly Event[], request: EventPageRequest): EventPage {
  const start = eventPageStart(request.pageToken);
  const size = pageSizeOf(request.pageSize, EVENT_PAGE_LIMITS.defaultPageSize, EVENT_PAGE_LIMITS.maxPageSize);
  const page: Event[] = [];
  let bytes = 0;
  for (const event of events.slice(start, start + size)) {
    const length = JSON.stringify(event).length;
    if (page.length > 0 && bytes + length > EVENT_PAGE_LIMITS.maxPageBytes) break;
    page.push(event);
    bytes += length;
  }
  const end = start + page.length;
  return end < events.length ? { events: page, nextPageToken: eventPageToken(end) } : { events: page };
}
