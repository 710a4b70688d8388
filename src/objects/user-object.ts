import type { Reservation, ReserveOutcome } from "../artifacts/artifact-ledger.js";
import { ARTIFACT_LEDGER_SQL, forgetIn, reserveIn, settleIn } from "../artifacts/artifact-ledger-sql.js";
import type { StateMap } from "../core/state.js";
import {
  ADD_MEMORY,
  anyOf,
  FORGET_ALL_MEMORIES,
  FORGET_SESSION_MEMORIES,
  MEMORY_SQL,
  SEARCH_MEMORIES,
  type StoredMemory,
} from "../memory/memory-sql.js";
import {
  addSession,
  type IndexEntry,
  type IndexPage,
  type IndexPageQuery,
  type IndexRepair,
  markSession,
  readPage,
  repairSessions,
  writeSession,
} from "../session/session-index.js";
import { REMOVE_SESSION, USER_SESSION_LISTING_SQL, USER_SESSIONS_SQL } from "../session/session-index-sql.js";
import { readState, STATE_TABLE_SQL, writeState } from "../storage/state-table.js";
import { ScopeStateObject } from "./scope-state-object.js";

/** The user object's schema as migration steps (step i takes version i to i + 1). */
export const USER_SQL_SCHEMA: readonly string[] = [
  `${STATE_TABLE_SQL}
   ${USER_SESSIONS_SQL}`,
  // Step 2: the user's memories, searchable (decision 033).
  MEMORY_SQL,
  // Step 3: what a listing returns, per session (decision 046).
  USER_SESSION_LISTING_SQL,
  // Step 4: the ledger of the user's artifacts, their versions and budgets (decision 048).
  ARTIFACT_LEDGER_SQL,
];

/**
 * `user:` state, the index of the user's sessions, the user's memories and the ledger of the user's
 * artifacts (every scope of theirs, so a version number and a budget are decided in one place), one object
 * per (app, user).
 */
export class UserObject extends ScopeStateObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env, USER_SQL_SCHEMA);
  }

  /**
   * Adds a session's row before its object is created (a write-ahead mark on a row that exists), placed at
   * `time` until the session's own is written; `created` when the row is new.
   */
  registerSession(sessionId: string, time: number): { mark: number; created: boolean } {
    return this.ctx.storage.transactionSync(() => addSession(this.ctx.storage.sql, sessionId, time));
  }

  /**
   * Writes a created session's row and merges the user-scoped part of its initial state; returns the
   * user state.
   */
  indexSession(sessionId: string, entry: IndexEntry, token: number, delta: StateMap): StateMap {
    this.ctx.storage.transactionSync(() => {
      writeSession(this.ctx.storage.sql, sessionId, entry, token);
      writeState(this.ctx.storage.sql, delta);
    });
    return readState(this.ctx.storage.sql);
  }

  /** Announces a change of the session before it is made; the mark to write its row with after. */
  markSession(sessionId: string): number | null {
    return markSession(this.ctx.storage.sql, sessionId);
  }

  /** Writes the session's row once its change ended; current when `token` is still its latest mark. */
  writeSession(sessionId: string, entry: IndexEntry, token: number | null): void {
    writeSession(this.ctx.storage.sql, sessionId, entry, token);
  }

  forgetSession(sessionId: string): void {
    REMOVE_SESSION.run(this.ctx.storage.sql, sessionId);
  }

  /** A page of the user's sessions, with the user state. */
  sessionPage(query: IndexPageQuery): IndexPage & { state: StateMap } {
    return { ...readPage(this.ctx.storage.sql, query), state: readState(this.ctx.storage.sql) };
  }

  /** What a page read from the sessions of rows it found stale. */
  repairSessions(repairs: IndexRepair[]): void {
    this.ctx.storage.transactionSync(() => repairSessions(this.ctx.storage.sql, repairs));
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

  /** The next version of an artifact and its bytes against its scope's budget, in one transaction. */
  reserveArtifact(reservation: Omit<Reservation, "scope"> & { scope: string }): ReserveOutcome {
    return this.ctx.storage.transactionSync(() => reserveIn(this.ctx.storage.sql, reservation, Date.now()));
  }

  /** A reserved artifact version's blob landed, or was not written. */
  settleArtifact(scope: string, filename: string, version: number, landed: boolean): void {
    settleIn(this.ctx.storage.sql, scope, filename, version, landed);
  }

  /** Forgets one artifact's versions, or (`filename` `null`) every version of the scope. */
  forgetArtifacts(scope: string, filename: string | null): void {
    forgetIn(this.ctx.storage.sql, scope, filename ?? undefined);
  }

  /** Forgets one session's memories, or every memory when `sessionId` is `null`. */
  forgetMemories(sessionId: string | null): void {
    if (sessionId === null) FORGET_ALL_MEMORIES.run(this.ctx.storage.sql);
    else FORGET_SESSION_MEMORIES.run(this.ctx.storage.sql, sessionId);
  }
}
