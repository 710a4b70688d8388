/**
 * The user's session index as its `UserObject` keeps it (decision 046): the rows a listing returns, the
 * write-ahead marks that say which rows may be stale, and pages read as ranges of one SQL index.
 */
import {
  ADD_SESSION,
  DROP_MISSING_SESSION,
  FIND_SESSION,
  FIRST_PAGE,
  type IndexRow,
  MARK_SESSION,
  PAGE_AFTER,
  REPAIR_SESSION,
  WRITE_SESSION,
} from "./session-index-sql.js";

/**
 * Session-scoped state kept in a row at most this long as JSON (a SQLite row holds 2 MB); a larger state
 * is read from its session when a page lists it.
 */
export const INDEXED_STATE_MAX_CHARS = 64 * 1024;

/** What a session's row says of it: `lastUpdateTime` and its session-scoped state as JSON. */
export interface IndexEntry {
  lastUpdateTime: number;
  stateJson: string;
}

/** One row of a page: its position in the index, what it holds and whether it must be read from its session. */
export interface IndexedSession {
  sessionId: string;
  /** The row's position: the index's `last_update_time` and `seq`. */
  time: number;
  seq: number;
  /** The indexed state as JSON; `null` when not kept (too large, or never indexed). */
  stateJson: string | null;
  mark: number;
  indexedMark: number;
  /** The row may be stale, or keeps no state: the page reads the session itself. */
  live: boolean;
}

export interface IndexPageQuery {
  order: "asc" | "desc";
  after: { time: number; seq: number } | null;
  size: number;
  /** At most this many `live` rows: the page ends before the next one. */
  maxLive: number;
  /** The page ends before the row whose indexed state would take it past this many characters. */
  maxStateChars: number;
}

export interface IndexPage {
  rows: IndexedSession[];
  /** Whether rows follow the last one. */
  more: boolean;
}

/** A page's repair of one row it read (`mark`, `indexedMark` as read); `entry` is `null` for a gone session. */
export interface IndexRepair {
  sessionId: string;
  mark: number;
  indexedMark: number;
  entry: IndexEntry | null;
  /** No turn ran on the session when it was read: the row is current once written. */
  settled: boolean;
}

/** Adds a new session's row (or marks an existing one); `created` when the row is new. */
export function addSession(
  sql: SqlStorage,
  sessionId: string,
  time: number,
): { mark: number; created: boolean } {
  const existing = FIND_SESSION.first(sql, sessionId);
  if (!existing) {
    ADD_SESSION.run(sql, sessionId, time);
    return { mark: 1, created: true };
  }
  return { mark: markSession(sql, sessionId) ?? existing.mark, created: false };
}

/** Announces a change before it is made: the new mark, or `null` when the session has no row. */
export const markSession = (sql: SqlStorage, sessionId: string): number | null =>
  MARK_SESSION.first(sql, sessionId)?.mark ?? null;

export function writeSession(
  sql: SqlStorage,
  sessionId: string,
  entry: IndexEntry,
  token: number | null,
): void {
  WRITE_SESSION.run(sql, sessionId, entry.lastUpdateTime, keptState(entry.stateJson), token);
}

export function repairSessions(sql: SqlStorage, repairs: readonly IndexRepair[]): void {
  for (const r of repairs) {
    if (r.entry === null) DROP_MISSING_SESSION.run(sql, r.sessionId, r.mark, r.indexedMark);
    else {
      const { lastUpdateTime, stateJson } = r.entry;
      const settled = r.settled ? 1 : 0;
      REPAIR_SESSION.run(
        sql,
        r.sessionId,
        lastUpdateTime,
        keptState(stateJson),
        r.mark,
        r.indexedMark,
        settled,
      );
    }
  }
}

const keptState = (json: string): string | null => (json.length <= INDEXED_STATE_MAX_CHARS ? json : null);

/** A page: one range of the index, cut at the size, the live rows allowed and the state it may carry. */
export function readPage(sql: SqlStorage, query: IndexPageQuery): IndexPage {
  const { order, after, size } = query;
  // closed key: `order` is a `SessionPageOrder` ("asc" | "desc"), checked where the token was read.
  const [first, next] = [FIRST_PAGE[order], PAGE_AFTER[order]];
  const fetched = after ? next.all(sql, after.time, after.seq, size + 1) : first.all(sql, size + 1);
  const rows: IndexedSession[] = [];
  let live = 0;
  let chars = 0;
  for (const row of fetched) {
    const next = indexedSession(row);
    const length = next.stateJson?.length ?? 0;
    if (rows.length === size || (next.live && live === query.maxLive)) break;
    if (rows.length > 0 && chars + length > query.maxStateChars) break;
    rows.push(next);
    chars += length;
    if (next.live) live++;
  }
  return { rows, more: rows.length < fetched.length };
}

const indexedSession = (row: IndexRow): IndexedSession => ({
  sessionId: row.session_id,
  time: row.last_update_time,
  seq: row.seq,
  stateJson: row.state,
  mark: row.mark,
  indexedMark: row.indexed_mark,
  live: row.mark !== row.indexed_mark || row.state === null,
});
