import * as z from "zod";
import { type Event, EventSchema } from "../core/event.js";
import { deepFreeze } from "../core/frozen.js";
import { type TurnTrace, TurnTraceSchema, withStoredSize } from "../core/trace.js";
import { Command, parseJson, Query } from "../storage/sql.js";
import type { CachedRow } from "./session-cache.js";

const SessionRowSchema = z.object({
  app_name: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  last_update_time: z.number(),
  lease_token: z.string().nullable(),
  lease_expires_at: z.number().nullable(),
  epoch: z.string(),
});
export type SessionRow = z.infer<typeof SessionRowSchema>;

export const SELECT_SESSION = new Query<[], SessionRow>(
  "SELECT app_name, user_id, session_id, last_update_time, lease_token, lease_expires_at," +
    " COALESCE(epoch, 'created ' || created_at) AS epoch FROM session WHERE id = 1",
  SessionRowSchema,
);
export const INSERT_SESSION = new Command<
  [app: string, user: string, session: string, created: number, epoch: string]
>(
  "INSERT INTO session (id, app_name, user_id, session_id, created_at, last_update_time, epoch)" +
    " VALUES (1, ?1, ?2, ?3, ?4, ?4, ?5)",
);
export const TOUCH_SESSION = new Command<[lastUpdateTime: number]>(
  "UPDATE session SET last_update_time = ? WHERE id = 1",
);
export const SET_LEASE = new Command<[token: string, expiresAt: number]>(
  "UPDATE session SET lease_token = ?, lease_expires_at = ? WHERE id = 1",
);
export const RELEASE_LEASE = new Command<[token: string]>(
  "UPDATE session SET lease_token = NULL, lease_expires_at = NULL WHERE id = 1 AND lease_token = ?",
);

/** Inserts one event; yields no row when its id is already in the log. */
export const INSERT_EVENT = new Query<[id: string, timestamp: number, json: string], { seq: number }>(
  "INSERT INTO events (id, timestamp, json) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING seq",
  z.object({ seq: z.number().int() }),
);

/** One row when an event with this id is in the log. */
export const HAS_EVENT = new Query<[id: string], { seq: number }>(
  "SELECT seq FROM events WHERE id = ?",
  z.object({ seq: z.number().int() }),
);

/**
 * The newest events at or after a time: the matching rows are found on `events_by_time` (session schema step
 * 8) and only their sequence numbers sorted, so a recent bound reads a few rows however long the log is.
 */
export const SELECT_AFTER_TIME_NEWEST_FIRST = new Query<[after: number, limit: number], Event>(
  `SELECT json FROM events WHERE seq IN (
     SELECT seq FROM events INDEXED BY events_by_time WHERE timestamp >= ?1 ORDER BY seq DESC LIMIT ?2)
   ORDER BY seq DESC`,
  z.object({ json: z.string() }).transform((row) => EventSchema.parse(parseJson(row.json))),
);

/** A page of the log, oldest first: the rows after `seq`, at most `limit`. */
export const SELECT_EVENTS_AFTER = new Query<[after: number, limit: number], { seq: number; json: string }>(
  "SELECT seq, json FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
  z.object({ seq: z.number().int(), json: z.string() }),
);

/** An event row checked with zod, frozen, as the object caches it: the one check the row gets per lifetime. */
export const cachedRow = (seq: number, json: string): CachedRow => ({
  seq,
  bytes: json.length,
  event: deepFreeze(EventSchema.parse(parseJson(json))),
});

/** The rows before `seq`, newest first, at most `limit` (-1 for all): how the cache grows backwards. */
export const SELECT_OLDER_NEWEST_FIRST = new Query<[before: number, limit: number], CachedRow>(
  "SELECT seq, json FROM events WHERE seq < ?1 ORDER BY seq DESC LIMIT ?2",
  z.object({ seq: z.number().int(), json: z.string() }).transform((row) => cachedRow(row.seq, row.json)),
);

/**
 * The events of one invocation, in log order: a scan of the log (its JSON), for the rare reconnect of a
 * turn's stream, never on a turn's path.
 */
export const SELECT_INVOCATION = new Query<[invocationId: string], Event>(
  "SELECT json FROM events WHERE json_extract(json, '$.invocationId') = ? ORDER BY seq",
  z.object({ json: z.string() }).transform((row) => EventSchema.parse(parseJson(row.json))),
);

/** One event by its row seq. */
export const SELECT_EVENT = new Query<[seq: number], Event>(
  "SELECT json FROM events WHERE seq = ?",
  z.object({ json: z.string() }).transform((row) => EventSchema.parse(parseJson(row.json))),
);

export const INSERT_TRACE = new Command<[invocationId: string, json: string]>(
  "INSERT INTO traces (invocation_id, json) VALUES (?, ?)",
);
/** Keeps the newest `keep` traces. */
export const TRIM_TRACES = new Command<[keep: number]>(
  "DELETE FROM traces WHERE seq <= (SELECT MAX(seq) FROM traces) - ?",
);
const encoder = new TextEncoder();

export const SELECT_TRACES = new Query<[], TurnTrace>(
  "SELECT json FROM traces ORDER BY seq",
  z
    .object({ json: z.string() })
    .transform((row) =>
      withStoredSize(TurnTraceSchema.parse(parseJson(row.json)), encoder.encode(row.json).byteLength),
    ),
);
