import * as z from "zod";
import {
  type TaskListPage,
  type TaskListQuery,
  TaskPayloadSchema,
  type TaskSummary,
} from "../../core/task-store.js";
import { Command, parseJson, Query } from "../../storage/sql.js";

/**
 * Schema step 3 of the app object: the app's A2A task index. Each session object writes its task's row after
 * every stored update (`seq` keeps a late write from undoing a newer one), so listing reads one table.
 */
export const TASK_INDEX_SQL = `
  CREATE TABLE tasks (
    task_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    context_id TEXT NOT NULL,
    state TEXT NOT NULL,
    status_time INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    snapshot TEXT NOT NULL
  );
  CREATE INDEX tasks_newest ON tasks (status_time DESC, task_id DESC);
  CREATE INDEX tasks_of_context ON tasks (context_id, status_time DESC, task_id DESC);`;

/** One task as its session object reports it to the index. */
export interface TaskIndexEntry extends TaskSummary {
  taskId: string;
  userId: string;
  seq: number;
  snapshot: Record<string, unknown>;
}

const UPSERT = new Command<
  [taskId: string, userId: string, contextId: string, state: string, time: number, seq: number, json: string]
>(
  `INSERT INTO tasks (task_id, user_id, context_id, state, status_time, seq, snapshot)
   VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
   ON CONFLICT (task_id) DO UPDATE SET state = ?4, status_time = ?5, seq = ?6, snapshot = ?7
   WHERE excluded.seq > tasks.seq`,
);
const DELETE_OF_SESSION = new Command<[contextId: string, userId: string]>(
  "DELETE FROM tasks WHERE context_id = ? AND user_id = ?",
);

/** The filters, bound in this order: user, context, state, status time from. */
type Filters = [string | null, string | null, string | null, number | null];
const FILTER = `(?1 IS NULL OR user_id = ?1) AND (?2 IS NULL OR context_id = ?2)
  AND (?3 IS NULL OR state = ?3) AND (?4 IS NULL OR status_time >= ?4)`;

const COUNT = new Query<Filters, { n: number }>(
  `SELECT COUNT(*) AS n FROM tasks WHERE ${FILTER}`,
  z.object({ n: z.number().int() }),
);
const PAGE = new Query<
  [...Filters, afterTime: number | null, afterId: string | null, limit: number],
  { task_id: string; status_time: number; snapshot: string }
>(
  `SELECT task_id, status_time, snapshot FROM tasks WHERE ${FILTER}
     AND (?5 IS NULL OR status_time < ?5 OR (status_time = ?5 AND task_id < ?6))
   ORDER BY status_time DESC, task_id DESC LIMIT ?7`,
  z.object({ task_id: z.string(), status_time: z.number().int(), snapshot: z.string() }),
);

export function indexTask(sql: SqlStorage, entry: TaskIndexEntry): void {
  UPSERT.run(
    sql,
    entry.taskId,
    entry.userId,
    entry.contextId,
    entry.state,
    entry.statusTime,
    entry.seq,
    JSON.stringify(entry.snapshot),
  );
}

export function forgetTasksOf(sql: SqlStorage, contextId: string, userId: string): void {
  DELETE_OF_SESSION.run(sql, contextId, userId);
}

/** A page of the index, newest status first; one row past the page tells whether another follows. */
export function listIndexedTasks(sql: SqlStorage, query: Omit<TaskListQuery, "appName">): TaskListPage {
  const filters: Filters = [
    query.userId ?? null,
    query.contextId ?? null,
    query.state ?? null,
    query.statusTimeFrom ?? null,
  ];
  const totalSize = COUNT.first(sql, ...filters)?.n ?? 0;
  const { after } = query;
  const rows = PAGE.all(
    sql,
    ...filters,
    after?.statusTime ?? null,
    after?.taskId ?? null,
    query.pageSize + 1,
  );
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return {
    snapshots: page.map((row) => TaskPayloadSchema.parse(parseJson(row.snapshot))),
    totalSize,
    next: rows.length > page.length && last ? { statusTime: last.status_time, taskId: last.task_id } : null,
  };
}
