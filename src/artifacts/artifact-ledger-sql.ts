import * as z from "zod";
import { Command, Query } from "../storage/sql.js";
import {
  decide,
  type LedgerRow,
  listedRows,
  type Reservation,
  type ReserveOutcome,
} from "./artifact-ledger.js";

/**
 * The artifact ledger in the user's Durable Object (schema step 4 of a `UserObject`, decision 048): every
 * version of the user's artifacts, per scope (a session's id, or `""` for the user's `user:` names), with
 * its bytes and, until its blob landed, how long its reservation counts. A scope is listed from the blob
 * store the first time it is used (artifacts saved before the ledger existed), and marked as seen.
 */
export const ARTIFACT_LEDGER_SQL = `
  CREATE TABLE artifact_scopes (scope TEXT PRIMARY KEY);
  CREATE TABLE artifact_versions (
    scope TEXT NOT NULL,
    filename TEXT NOT NULL,
    version INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    pending_until INTEGER,
    PRIMARY KEY (scope, filename, version)
  );`;

const SEEN = new Query<[scope: string], { scope: string }>(
  "SELECT scope FROM artifact_scopes WHERE scope = ?",
  z.object({ scope: z.string() }),
);
const MARK_SEEN = new Command<[scope: string]>("INSERT OR IGNORE INTO artifact_scopes (scope) VALUES (?)");
const ROWS = new Query<
  [scope: string],
  { filename: string; version: number; bytes: number; pending_until: number | null }
>(
  "SELECT filename, version, bytes, pending_until FROM artifact_versions WHERE scope = ?",
  z.object({
    filename: z.string(),
    version: z.number().int(),
    bytes: z.number().int(),
    pending_until: z.number().int().nullable(),
  }),
);
const PUT = new Command<
  [scope: string, filename: string, version: number, bytes: number, pendingUntil: number | null]
>(
  `INSERT INTO artifact_versions (scope, filename, version, bytes, pending_until) VALUES (?1, ?2, ?3, ?4, ?5)
   ON CONFLICT (scope, filename, version) DO UPDATE SET bytes = ?4, pending_until = ?5`,
);
const DROP = new Command<[scope: string, filename: string, version: number]>(
  "DELETE FROM artifact_versions WHERE scope = ? AND filename = ? AND version = ?",
);
const LANDED = new Command<[scope: string, filename: string, version: number]>(
  "UPDATE artifact_versions SET pending_until = NULL WHERE scope = ? AND filename = ? AND version = ?",
);
const FORGET_NAME = new Command<[scope: string, filename: string]>(
  "DELETE FROM artifact_versions WHERE scope = ? AND filename = ?",
);
const FORGET_SCOPE = new Command<[scope: string]>("DELETE FROM artifact_versions WHERE scope = ?");

const put = (sql: SqlStorage, scope: string, row: LedgerRow) =>
  PUT.run(sql, scope, row.filename, row.version, row.bytes, row.pendingUntil);

/** A scope's key in the user's ledger: the session's id, or `""` for the user's `user:` names. */
export const scopeKey = (sessionId: string | null): string => sessionId ?? "";

/** `decide` over the scope's stored rows, its changes written; run inside the object's transaction. */
export function reserveIn(
  sql: SqlStorage,
  reservation: Omit<Reservation, "scope"> & { scope: string },
  now: number,
): ReserveOutcome {
  const { scope } = reservation;
  if (!SEEN.first(sql, scope)) {
    if (!reservation.listed) return { kind: "unseen" };
    for (const row of listedRows(reservation.listed)) put(sql, scope, row);
    MARK_SEEN.run(sql, scope);
  }
  const rows = ROWS.all(sql, scope).map(
    (r): LedgerRow => ({
      filename: r.filename,
      version: r.version,
      bytes: r.bytes,
      pendingUntil: r.pending_until,
    }),
  );
  const { outcome, lapsed, taken, added } = decide(rows, reservation, now);
  for (const row of lapsed) DROP.run(sql, scope, row.filename, row.version);
  if (taken) put(sql, scope, taken);
  if (added) put(sql, scope, added);
  return outcome;
}

/** A reservation settled: its blob landed (counted from now on), or it was not written (dropped). */
export function settleIn(
  sql: SqlStorage,
  scope: string,
  filename: string,
  version: number,
  landed: boolean,
): void {
  if (landed) LANDED.run(sql, scope, filename, version);
  else DROP.run(sql, scope, filename, version);
}

/** Forgets one name's versions, or every version of the scope. */
export function forgetIn(sql: SqlStorage, scope: string, filename: string | undefined): void {
  if (filename === undefined) FORGET_SCOPE.run(sql, scope);
  else FORGET_NAME.run(sql, scope, filename);
}
