import * as z from "zod";
import { Command, parseJson, Query } from "../storage/sql.js";
import { type TurnRecord, TurnRecordSchema } from "./turn-record.js";

/**
 * Schema step 1 of a turn shard (decision 038): the turn records, replay guards and session lines of every
 * delivery whose key hashes to this shard. Every row carries the time it may be deleted, so one alarm per
 * shard sweeps what is past it.
 */
export const TURN_SHARD_SQL = `
  CREATE TABLE turns (
    turn_id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX turns_expiry ON turns (expires_at);
  CREATE TABLE guards (
    name TEXT PRIMARY KEY,
    turn_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX guards_expiry ON guards (expires_at);
  CREATE TABLE line_places (
    line TEXT NOT NULL,
    place INTEGER NOT NULL,
    turn_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (line, place)
  );
  CREATE UNIQUE INDEX line_places_of_turn ON line_places (line, turn_id);
  CREATE INDEX line_places_expiry ON line_places (expires_at);
  CREATE TABLE line_ends (
    line TEXT PRIMARY KEY,
    last_place INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX line_ends_expiry ON line_ends (expires_at);`;

const READ_TURN = new Query<[turnId: string], { record: string }>(
  "SELECT record FROM turns WHERE turn_id = ?",
  z.object({ record: z.string() }),
);
const INSERT_TURN = new Command<[turnId: string, record: string, expiresAt: number]>(
  "INSERT INTO turns (turn_id, record, expires_at) VALUES (?, ?, ?)",
);
const UPDATE_TURN = new Command<[record: string, turnId: string]>(
  "UPDATE turns SET record = ? WHERE turn_id = ?",
);
const DELETE_TURN = new Command<[turnId: string]>("DELETE FROM turns WHERE turn_id = ?");

/** The turn's record, `undefined` when this shard has none (never claimed, forgotten or expired). */
export function readTurn(sql: SqlStorage, turnId: string): TurnRecord | undefined {
  const row = READ_TURN.first(sql, turnId);
  return row ? TurnRecordSchema.parse(parseJson(row.record)) : undefined;
}

export const insertTurn = (sql: SqlStorage, record: TurnRecord, expiresAt: number): void =>
  INSERT_TURN.run(sql, record.turnId, JSON.stringify(record), expiresAt);

export const updateTurn = (sql: SqlStorage, record: TurnRecord): void =>
  UPDATE_TURN.run(sql, JSON.stringify(record), record.turnId);

export const deleteTurn = (sql: SqlStorage, turnId: string): void => DELETE_TURN.run(sql, turnId);

const READ_GUARD = new Query<[name: string], { turn_id: string }>(
  "SELECT turn_id FROM guards WHERE name = ?",
  z.object({ turn_id: z.string() }),
);
const INSERT_GUARD = new Command<[name: string, turnId: string, expiresAt: number]>(
  "INSERT INTO guards (name, turn_id, expires_at) VALUES (?, ?, ?)",
);
const DELETE_GUARD = new Command<[name: string, turnId: string]>(
  "DELETE FROM guards WHERE name = ? AND turn_id = ?",
);

/** The turn that first came with the guarded body; `turnId` (now the owner) when none did. */
export function claimGuard(sql: SqlStorage, name: string, turnId: string, expiresAt: number): string {
  const owner = READ_GUARD.first(sql, name)?.turn_id;
  if (owner !== undefined) return owner;
  INSERT_GUARD.run(sql, name, turnId, expiresAt);
  return turnId;
}

export const releaseGuard = (sql: SqlStorage, name: string, turnId: string): void =>
  DELETE_GUARD.run(sql, name, turnId);

const PLACE_OF = new Query<[line: string, turnId: string], { place: number }>(
  "SELECT place FROM line_places WHERE line = ? AND turn_id = ?",
  z.object({ place: z.number().int() }),
);
const LAST_PLACE = new Query<[line: string], { last_place: number }>(
  "SELECT last_place FROM line_ends WHERE line = ?",
  z.object({ last_place: z.number().int() }),
);
const WRITE_END = new Command<[line: string, lastPlace: number, expiresAt: number]>(
  `INSERT INTO line_ends (line, last_place, expires_at) VALUES (?1, ?2, ?3)
   ON CONFLICT (line) DO UPDATE SET last_place = ?2, expires_at = ?3`,
);
const INSERT_PLACE = new Command<[line: string, place: number, turnId: string, expiresAt: number]>(
  "INSERT INTO line_places (line, place, turn_id, expires_at) VALUES (?, ?, ?, ?)",
);
const HEAD = new Query<[line: string], { turn_id: string }>(
  "SELECT turn_id FROM line_places WHERE line = ? ORDER BY place LIMIT 1",
  z.object({ turn_id: z.string() }),
);
const LEAVE = new Command<[line: string, turnId: string]>(
  "DELETE FROM line_places WHERE line = ? AND turn_id = ?",
);

/**
 * Puts `turnId` at the end of the session's line (once: a second call returns its place); places count
 * from 1 in acceptance order. One read and a few writes with no `await` between them: atomic in the object.
 */
export function enrollInLine(sql: SqlStorage, line: string, turnId: string, expiresAt: number): number {
  const known = PLACE_OF.first(sql, line, turnId)?.place;
  if (known !== undefined) return known;
  const place = (LAST_PLACE.first(sql, line)?.last_place ?? 0) + 1;
  WRITE_END.run(sql, line, place, expiresAt);
  INSERT_PLACE.run(sql, line, place, turnId, expiresAt);
  return place;
}

/** The turn at the head of the line, `undefined` when the line is empty. */
export const lineHead = (sql: SqlStorage, line: string): string | undefined => HEAD.first(sql, line)?.turn_id;

/** Takes `turnId` out of the line (a turn that ended, or one that expired); returns the new head. */
export function leaveLine(sql: SqlStorage, line: string, turnId: string): string | undefined {
  LEAVE.run(sql, line, turnId);
  return lineHead(sql, line);
}

const TABLES = ["turns", "guards", "line_places", "line_ends", "unsent"] as const;
const SWEEPS = TABLES.map(
  (table) => new Command<[now: number]>(`DELETE FROM ${table} WHERE expires_at <= ?`),
);
const NEXT_EXPIRY = new Query<[], { at: number | null }>(
  `SELECT min(at) AS at FROM (${TABLES.map((t) => `SELECT min(expires_at) AS at FROM ${t}`).join(" UNION ALL ")})`,
  z.object({ at: z.number().nullable() }),
);

/** Deletes every row whose time has come; returns when the next one's comes, `null` when none is left. */
export function sweepExpired(sql: SqlStorage, now: number): number | null {
  for (const sweep of SWEEPS) sweep.run(sql, now);
  return NEXT_EXPIRY.first(sql)?.at ?? null;
}
