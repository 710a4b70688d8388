import {
  forgetTasksOf,
  indexTask,
  listIndexedTasks,
  TASK_INDEX_SQL,
  type TaskIndexEntry,
} from "../a2a/tasks/task-index-sql.js";
import type { StateMap } from "../core/state.js";
import type { TaskListPage, TaskListQuery } from "../core/task-store.js";
import {
  deleteEvalDocument,
  EVAL_DOCUMENTS_SQL,
  listEvalDocuments,
  readEvalDocument,
  writeEvalDocument,
} from "../evals/eval-docs-sql.js";
import { ADD_OWNER, REMOVE_OWNER, SELECT_OWNERS, SESSION_OWNERS_SQL } from "../session/session-index-sql.js";
import { readState, STATE_TABLE_SQL, writeState } from "../storage/state-table.js";
import { ScopeStateObject } from "./scope-state-object.js";

/** The app object's schema as migration steps (step i takes version i to i + 1). */
export const APP_SQL_SCHEMA: readonly string[] = [
  STATE_TABLE_SQL,
  // Step 2: who owns each session id, for the dev UI's trace view, which names a session without its user.
  SESSION_OWNERS_SQL,
  TASK_INDEX_SQL,
  EVAL_DOCUMENTS_SQL,
];

/**
 * `app:` state, one object per app, shared by every user of the app; who owns which session id; and the
 * index of the app's A2A tasks.
 */
export class AppObject extends ScopeStateObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env, APP_SQL_SCHEMA);
  }

  /** Records the session's owner and merges the app-scoped part of its initial state (the same one call). */
  registerSession(sessionId: string, userId: string, delta: StateMap): StateMap {
    this.ctx.storage.transactionSync(() => {
      ADD_OWNER.run(this.ctx.storage.sql, sessionId, userId);
      writeState(this.ctx.storage.sql, delta);
    });
    return readState(this.ctx.storage.sql);
  }

  /** Forgets the session's owner and its tasks (a deleted session's tasks are gone with it). */
  forgetSession(sessionId: string, userId: string): void {
    this.ctx.storage.transactionSync(() => {
      REMOVE_OWNER.run(this.ctx.storage.sql, sessionId, userId);
      forgetTasksOf(this.ctx.storage.sql, sessionId, userId);
    });
  }

  /** Records a task as its session object just stored it (an older `seq` than the indexed one is ignored). */
  indexTask(entry: TaskIndexEntry): void {
    indexTask(this.ctx.storage.sql, entry);
  }

  listTasks(query: Omit<TaskListQuery, "appName">): TaskListPage {
    return listIndexedTasks(this.ctx.storage.sql, query);
  }

  ownersOf(sessionId: string): string[] {
    return SELECT_OWNERS.all(this.ctx.storage.sql, sessionId).map((row) => row.user_id);
  }

  /** The app's eval sets and results when no R2 bucket keeps them (`src/evals/do-eval-store.ts`). */
  evalDocument(kind: string, id: string): string | null {
    return readEvalDocument(this.ctx.storage.sql, kind, id);
  }

  putEvalDocument(kind: string, id: string, body: string): void {
    writeEvalDocument(this.ctx.storage.sql, kind, id, body);
  }

  deleteEvalDocument(kind: string, id: string): boolean {
    return deleteEvalDocument(this.ctx.storage.sql, kind, id);
  }

  listEvalDocuments(kind: string, after?: string, limit?: number): string[] {
    return listEvalDocuments(this.ctx.storage.sql, kind, after, limit);
  }
}
