/**
 * The indexes of sessions kept outside their own objects: a user's sessions in their `UserObject`, and who
 * owns each session id in the app's `AppObject` (the dev UI's trace view names a session without its user).
 *
 * A user's index row holds what a listing returns (decision 046): the session's `lastUpdateTime` and its
 * session-scoped state as JSON, written when a turn or a state change ends. `mark` counts the changes
 * announced before they were made (a write-ahead mark, taken before the session object commits anything);
 * `indexed_mark` is the mark the row's data is known to be current for. A row whose two differ may be stale
 * (a turn runs, or one crashed between its commit and the index write) and is read from its session.
 */
import * as z from "zod";
import { Command, Query } from "../storage/sql.js";

export const USER_SESSIONS_SQL =
  "CREATE TABLE sessions (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL UNIQUE);";
export const SESSION_OWNERS_SQL =
  "CREATE TABLE session_owners (session_id TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (session_id, user_id));";

/**
 * Step 3 of the user object: the listing's columns. Rows made before it (ids only) read as never indexed
 * (`mark` 1, `indexed_mark` 0), so each is read from its session the first time a page reaches it.
 */
export const USER_SESSION_LISTING_SQL = `
  ALTER TABLE sessions ADD COLUMN last_update_time REAL NOT NULL DEFAULT 0;
  ALTER TABLE sessions ADD COLUMN state TEXT;
  ALTER TABLE sessions ADD COLUMN mark INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE sessions ADD COLUMN indexed_mark INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX sessions_by_update ON sessions (last_update_time, seq);`;

/** One index row as a page reads it. */
export const IndexRowSchema = z.object({
  seq: z.number().int(),
  session_id: z.string(),
  last_update_time: z.number(),
  state: z.string().nullable(),
  mark: z.number().int(),
  indexed_mark: z.number().int(),
});
export type IndexRow = z.infer<typeof IndexRowSchema>;

const COLUMNS = "seq, session_id, last_update_time, state, mark, indexed_mark";

/** The first page and the pages after a position, in each order: each a range of `sessions_by_update`. */
export const FIRST_PAGE = {
  desc: new Query<[limit: number], IndexRow>(
    `SELECT ${COLUMNS} FROM sessions ORDER BY last_update_time DESC, seq DESC LIMIT ?`,
    IndexRowSchema,
  ),
  asc: new Query<[limit: number], IndexRow>(
    `SELECT ${COLUMNS} FROM sessions ORDER BY last_update_time, seq LIMIT ?`,
    IndexRowSchema,
  ),
};
export const PAGE_AFTER = {
  desc: new Query<[time: number, seq: number, limit: number], IndexRow>(
    `SELECT ${COLUMNS} FROM sessions WHERE (last_update_time, seq) < (?1, ?2)
     ORDER BY last_update_time DESC, seq DESC LIMIT ?3`,
    IndexRowSchema,
  ),
  asc: new Query<[time: number, seq: number, limit: number], IndexRow>(
    `SELECT ${COLUMNS} FROM sessions WHERE (last_update_time, seq) > (?1, ?2)
     ORDER BY last_update_time, seq LIMIT ?3`,
    IndexRowSchema,
  ),
};

export const FIND_SESSION = new Query<[sessionId: string], { mark: number }>(
  "SELECT mark FROM sessions WHERE session_id = ?",
  z.object({ mark: z.number().int() }),
);
/** A new session's row, before its object is created: not yet indexed, placed at `time`. */
export const ADD_SESSION = new Command<[sessionId: string, time: number]>(
  "INSERT INTO sessions (session_id, last_update_time, mark, indexed_mark) VALUES (?, ?, 1, 0)",
);
/** Announces a change of the session; yields the new mark (no row: no such session indexed). */
export const MARK_SESSION = new Query<[sessionId: string], { mark: number }>(
  "UPDATE sessions SET mark = mark + 1 WHERE session_id = ? RETURNING mark",
  z.object({ mark: z.number().int() }),
);
/**
 * Writes the row's data. It is current (clean) only when `token` is the row's mark: no change was announced
 * after the one that wrote it. A missing row (its session deleted meanwhile, or a page's repair took it) is
 * written back not clean, so the next page reads its session again and keeps or drops it.
 */
export const WRITE_SESSION = new Command<
  [sessionId: string, time: number, state: string | null, token: number | null]
>(
  `INSERT INTO sessions (session_id, last_update_time, state, mark, indexed_mark) VALUES (?1, ?2, ?3, 1, 0)
   ON CONFLICT (session_id) DO UPDATE SET last_update_time = ?2, state = ?3,
     indexed_mark = CASE WHEN sessions.mark = ?4 THEN ?4 ELSE sessions.indexed_mark END`,
);
/**
 * A page's repair of a row it read, if nothing was announced or written since (`mark`, `indexed_mark` as
 * read): the session's data, current when its session ran no turn (`settled` 1).
 */
export const REPAIR_SESSION = new Command<
  [sessionId: string, time: number, state: string | null, mark: number, indexed: number, settled: number]
>(
  `UPDATE sessions SET last_update_time = ?2, state = ?3,
     indexed_mark = CASE WHEN ?6 = 1 THEN mark ELSE indexed_mark END
   WHERE session_id = ?1 AND mark = ?4 AND indexed_mark = ?5`,
);
/** Drops the row of a session that does not exist, if nothing was announced or written since it was read. */
export const DROP_MISSING_SESSION = new Command<[sessionId: string, mark: number, indexed: number]>(
  "DELETE FROM sessions WHERE session_id = ? AND mark = ? AND indexed_mark = ?",
);
export const REMOVE_SESSION = new Command<[sessionId: string]>("DELETE FROM sessions WHERE session_id = ?");

export const ADD_OWNER = new Command<[sessionId: string, userId: string]>(
  "INSERT INTO session_owners (session_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
);
export const REMOVE_OWNER = new Command<[sessionId: string, userId: string]>(
  "DELETE FROM session_owners WHERE session_id = ? AND user_id = ?",
);
/** The dev UI's trace view reads the sessions of these users: a few, never every user of the app. */
export const MAX_OWNERS_READ = 10;
export const SELECT_OWNERS = new Query<[sessionId: string], { user_id: string }>(
  `SELECT user_id FROM session_owners WHERE session_id = ? ORDER BY user_id LIMIT ${MAX_OWNERS_READ}`,
  z.object({ user_id: z.string() }),
);
