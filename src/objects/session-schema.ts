import { PUSH_CONFIG_TABLE_SQL } from "../a2a/tasks/task-push.js";
import { TASK_TABLES_SQL } from "../a2a/tasks/task-sql.js";
import { REMINDER_TABLE_SQL } from "../schedules/session-reminders.js";
import { STATE_TABLE_SQL } from "../storage/state-table.js";
import { WAITING_TURNS_OUTCOME_SQL, WAITING_TURNS_SQL } from "../turns/waiting-turns.js";

/**
 * The session object's schema, as migration steps (step i takes version i to i + 1). Events are ordered by
 * `seq`, the append sequence, never by their timestamps. The single `session` row holds the key, times and lease.
 * Each concern the object hosts owns its tables (`task-sql.ts`, `session-reminders.ts`, …); this
 * list only orders them.
 */
export const SESSION_SQL_SCHEMA: readonly string[] = [
  `CREATE TABLE session (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     app_name TEXT NOT NULL,
     user_id TEXT NOT NULL,
     session_id TEXT NOT NULL,
     created_at REAL NOT NULL,
     last_update_time REAL NOT NULL,
     lease_token TEXT,
     lease_expires_at INTEGER
   );
   ${STATE_TABLE_SQL}
   CREATE TABLE events (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     timestamp REAL NOT NULL,
     json TEXT NOT NULL
   );`,
  TASK_TABLES_SQL,
  // Step 3: each turn's trace (decision 014), written by endTurn, the last few kept.
  `CREATE TABLE traces (
     seq INTEGER PRIMARY KEY,
     invocation_id TEXT NOT NULL,
     json TEXT NOT NULL
   );`,
  // Step 4: the session's epoch (decision 025), new each time the session is created; a row made before
  // this step reads its creation time as its epoch.
  "ALTER TABLE session ADD COLUMN epoch TEXT;",
  // Step 5: reminders an agent set (decision 036), fired by the object's alarm.
  REMINDER_TABLE_SQL,
  // Step 6: the push configs of the A2A tasks (decision 039).
  PUSH_CONFIG_TABLE_SQL,
  // Step 7: the turns waiting in the session's line (double-texting `enqueue`, decision 028).
  WAITING_TURNS_SQL,
  // Step 8: events by time, so an `afterTimestamp` window reads only the events it selects (decision 046).
  "CREATE INDEX events_by_time ON events (timestamp);",
  // Step 9: where a waiting turn's caller waited, and what another turn decided for it (decision 047).
  WAITING_TURNS_OUTCOME_SQL,
];
