import { DurableObject } from "cloudflare:workers";
import * as z from "zod";
import type { StateMap } from "../core/state.js";
import type { TaskListPage, TaskListQuery } from "../core/task-store.js";
import {
  deleteEvalDocument,
  EVAL_DOCUMENTS_SQL,
  listEvalDocuments,
  readEvalDocument,
  writeEvalDocument,
} from "./eval-docs-sql.js";
import {
  ADD_MEMORY,
  anyOf,
  FORGET_ALL_MEMORIES,
  FORGET_SESSION_MEMORIES,
  MEMORY_SQL,
  SEARCH_MEMORIES,
  type StoredMemory,
} from "./memory-sql.js";
import { Command, migrate, Query } from "./sql.js";
import { readState, STATE_TABLE_SQL, writeState } from "./state-table.js";
import {
  forgetTasksOf,
  indexTask,
  listIndexedTasks,
  TASK_INDEX_SQL,
  type TaskIndexEntry,
} from "./task-index-sql.js";

/** Schemas as migration steps (step i takes version i to i + 1). */
export const APP_SQL_SCHEMA: readonly string[] = [
  STATE_TABLE_SQL,
  // Step 2: who owns each session id, for the dev UI's trace view, which names a session without its user.
  "CREATE TABLE session_owners (session_id TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (session_id, user_id));",
  TASK_INDEX_SQL,
  EVAL_DOCUMENTS_SQL,
];
export const USER_SQL_SCHEMA: readonly string[] = [
  `${STATE_TABLE_SQL}
   CREATE TABLE sessions (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL UNIQUE);`,
  // Step 2: the user's memories, searchable (decision 033).
  MEMORY_SQL,
];

const ADD_SESSION = new Command<[sessionId: string]>(
  "INSERT INTO sessions (session_id) VALUES (?) ON CONFLICT (session_id) DO NOTHING",
);
const REMOVE_SESSION = new Command<[sessionId: string]>("DELETE FROM sessions WHERE session_id = ?");
const ADD_OWNER = new Command<[sessionId: string, userId: string]>(
  "INSERT INTO session_owners (session_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
);
const REMOVE_OWNER = new Command<[sessionId: string, userId: string]>(
  "DELETE FROM session_owners WHERE session_id = ? AND user_id = ?",
);
const SELECT_OWNERS = new Query<[sessionId: string], { user_id: string }>(
  "SELECT user_id FROM session_owners WHERE session_id = ? ORDER BY user_id",
  z.object({ user_id: z.string() }),
);
const SELECT_SESSIONS = new Query<[], { session_id: string }>(
  "SELECT session_id FROM sessions ORDER BY seq",
  z.object({ session_id: z.string() }),
);

/** A shared state scope: keys stored without their `app:`/`user:` prefix. */
abstract class ScopeStateObject extends DurableObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env, schema: readonly string[]) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => migrate(ctx.storage, schema));
  }

  /** Merges `delta` key by key and returns the whole scope state. An empty delta is a plain read. */
  merge(delta: StateMap): StateMap {
    if (Object.keys(delta).length > 0)
      this.ctx.storage.transactionSync(() => writeState(this.ctx.storage.sql, delta));
    return readState(this.ctx.storage.sql);
  }
}

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

  listEvalDocuments(kind: string): string[] {
    return listEvalDocuments(this.ctx.storage.sql, kind);
  }
}

/** `user:` state, the index of the user's sessions and the user's memories, one object per (app, user). */
export class UserObject extends ScopeStateObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env, USER_SQL_SCHEMA);
  }

  /** Adds a session to the index and merges the user-scoped part of its initial state; returns the user state. */
  registerSession(sessionId: string, delta: StateMap): StateMap {
    this.ctx.storage.transactionSync(() => {
      ADD_SESSION.run(this.ctx.storage.sql, sessionId);
      writeState(this.ctx.storage.sql, delta);
    });
    return readState(this.ctx.storage.sql);
  }

  forgetSession(sessionId: string): void {
    REMOVE_SESSION.run(this.ctx.storage.sql, sessionId);
  }

  /** The indexed session ids in creation order, with the user state. */
  listSessions(): { sessionIds: string[]; state: StateMap } {
    const sessionIds = SELECT_SESSIONS.all(this.ctx.storage.sql).map((row) => row.session_id);
    return { sessionIds, state: readState(this.ctx.storage.sql) };
  }

  /** Stores memories; one whose id is stored already is skipped (a session added again adds its new events). */
  addMemories(memories: readonly StoredMemory[]): void {
    this.ctx.storage.transactionSync(() => {
      for (const m of memories) ADD_MEMORY.run(this.ctx.storage.sql, m.id, m.sessionId, m.entryJson, m.text);
    });
  }

  /** The entries (as JSON) of the memories matching any of `terms`, best first. */
  searchMemories(terms: readonly string[], limit: number): string[] {
    if (terms.length === 0) return [];
    return SEARCH_MEMORIES.all(this.ctx.storage.sql, anyOf(terms), limit).map((row) => row.entry);
  }

  /** Forgets one session's memories, or every memory when `sessionId` is `null`. */
  forgetMemories(sessionId: string | null): void {
    if (sessionId === null) FORGET_ALL_MEMORIES.run(this.ctx.storage.sql);
    else FORGET_SESSION_MEMORIES.run(this.ctx.storage.sql, sessionId);
  }
}
