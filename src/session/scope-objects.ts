import { DurableObject } from "cloudflare:workers";
import * as z from "zod";
import type { StateMap } from "../core/state.js";
import { Command, migrate, Query } from "./sql.js";
import { readState, STATE_TABLE_SQL, writeState } from "./state-table.js";

/** Schemas as migration steps (step i takes version i to i + 1). */
export const APP_SQL_SCHEMA: readonly string[] = [STATE_TABLE_SQL];
export const USER_SQL_SCHEMA: readonly string[] = [
  `${STATE_TABLE_SQL}
   CREATE TABLE sessions (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL UNIQUE);`,
];

const ADD_SESSION = new Command<[sessionId: string]>(
  "INSERT INTO sessions (session_id) VALUES (?) ON CONFLICT (session_id) DO NOTHING",
);
const REMOVE_SESSION = new Command<[sessionId: string]>("DELETE FROM sessions WHERE session_id = ?");
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

/** `app:` state, one object per app, shared by every user of the app. */
export class AppObject extends ScopeStateObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env, APP_SQL_SCHEMA);
  }
}

/** `user:` state and the index of the user's sessions, one object per (app, user). */
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
}
