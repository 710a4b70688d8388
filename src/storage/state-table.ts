import * as z from "zod";
import type { StateMap } from "../core/state.js";
import { Command, parseJson, Query } from "./sql.js";

/** One row per state key, so a delta is a few upserts instead of rewriting the whole map. */
export const STATE_TABLE_SQL = "CREATE TABLE state (key TEXT PRIMARY KEY, json TEXT NOT NULL);";

const SELECT_STATE = new Query<[], { key: string; json: string }>(
  "SELECT key, json FROM state ORDER BY key",
  z.object({ key: z.string(), json: z.string() }),
);
const UPSERT_STATE = new Command<[key: string, json: string]>(
  "INSERT INTO state (key, json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET json = excluded.json",
);

export function readState(sql: SqlStorage): StateMap {
  return Object.fromEntries(SELECT_STATE.all(sql).map((row) => [row.key, parseJson(row.json)]));
}

/**
 * Merges a delta key by key (ADK merges per key: `old | delta`). Call inside `transactionSync`. Returns the
 * values as a later `readState` gives them back (their JSON round trip), for a cache to hold.
 */
export function writeState(sql: SqlStorage, delta: StateMap): StateMap {
  const stored: StateMap = {};
  for (const [key, value] of Object.entries(delta)) {
    // `undefined` has no JSON form; it is stored as null like Python's None.
    const json = JSON.stringify(value) ?? "null";
    UPSERT_STATE.run(sql, key, json);
    stored[key] = parseJson(json);
  }
  return stored;
}
