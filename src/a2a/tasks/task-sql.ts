import * as z from "zod";
import {
  TaskPayloadSchema,
  type TaskPhase,
  TaskPhaseSchema,
  type TaskRecord,
} from "../../core/task-store.js";
import { Command, parseJson, Query } from "../../storage/sql.js";

/**
 * Schema step 2 of the session object: A2A tasks beside the events. `tasks` holds each task's latest
 * snapshot; `task_updates` its stored updates in order (`seq` per task), so a follower can be told exactly
 * what came after the snapshot it was sent.
 */
export const TASK_TABLES_SQL = `
  CREATE TABLE tasks (
    task_id TEXT PRIMARY KEY,
    invocation_id TEXT NOT NULL,
    phase TEXT NOT NULL,
    seq INTEGER NOT NULL,
    snapshot TEXT NOT NULL,
    cancel_requested INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX tasks_by_invocation ON tasks (invocation_id);
  CREATE TABLE task_updates (
    task_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (task_id, seq)
  );`;

const TaskRowSchema = z
  .object({
    task_id: z.string(),
    invocation_id: z.string(),
    phase: TaskPhaseSchema,
    seq: z.number().int(),
    snapshot: z.string(),
    cancel_requested: z.number().int(),
  })
  .transform(
    (row): TaskRecord => ({
      taskId: row.task_id,
      invocationId: row.invocation_id,
      phase: row.phase,
      seq: row.seq,
      snapshot: TaskPayloadSchema.parse(parseJson(row.snapshot)),
      cancelRequested: row.cancel_requested === 1,
    }),
  );

const TASK_COLUMNS = "task_id, invocation_id, phase, seq, snapshot, cancel_requested";

export const SELECT_TASK = new Query<[taskId: string], TaskRecord>(
  `SELECT ${TASK_COLUMNS} FROM tasks WHERE task_id = ?`,
  TaskRowSchema,
);
export const SELECT_ACTIVE_TASK = new Query<[], { task_id: string }>(
  "SELECT task_id FROM tasks WHERE phase = 'active' ORDER BY rowid DESC LIMIT 1",
  z.object({ task_id: z.string() }),
);
/** Whether a cancel has flagged this invocation. */
export const SELECT_CANCELED_INVOCATION = new Query<[invocationId: string], { task_id: string }>(
  "SELECT task_id FROM tasks WHERE invocation_id = ? AND cancel_requested = 1 LIMIT 1",
  z.object({ task_id: z.string() }),
);
export const SELECT_ANY_CANCELED = new Query<[], { task_id: string }>(
  "SELECT task_id FROM tasks WHERE cancel_requested = 1 LIMIT 1",
  z.object({ task_id: z.string() }),
);
export const UPSERT_TASK = new Command<
  [taskId: string, invocationId: string, phase: TaskPhase, seq: number, snapshot: string, cancel: number]
>(
  `INSERT INTO tasks (${TASK_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
   ON CONFLICT (task_id) DO UPDATE SET invocation_id = ?2, phase = ?3, seq = ?4, snapshot = ?5,
     cancel_requested = ?6`,
);
export const INSERT_TASK_UPDATE = new Command<[taskId: string, seq: number, json: string]>(
  "INSERT INTO task_updates (task_id, seq, json) VALUES (?, ?, ?)",
);

/** Stores the record and, when given, the update that produced it. Call inside `transactionSync`. */
export function saveTask(sql: SqlStorage, record: TaskRecord, update: Record<string, unknown>): void {
  UPSERT_TASK.run(
    sql,
    record.taskId,
    record.invocationId,
    record.phase,
    record.seq,
    JSON.stringify(record.snapshot),
    record.cancelRequested ? 1 : 0,
  );
  INSERT_TASK_UPDATE.run(sql, record.taskId, record.seq, JSON.stringify(update));
}
