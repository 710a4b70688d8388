import { DurableObject } from "cloudflare:workers";
import { BatonError } from "../core/errors.js";
import { createEvent, type Event } from "../core/event.js";
import type { Session, SessionKey } from "../core/session.js";
import type { EventWindow } from "../core/session-store.js";
import { type StateMap, splitStateDelta } from "../core/state.js";
import type {
  TaskPayload,
  TaskRecord,
  TaskWrite,
  TaskWriteOptions,
  TaskWriteResult,
} from "../core/task-store.js";
import { TRACE_LIMITS, type TurnTrace } from "../core/trace.js";
import { windowLimit } from "./event-window.js";
import { judgeLease, type Lease, leaseError } from "./lease.js";
import { persistedEvent } from "./persisted-event.js";
import { ok, type RpcResult, refuse } from "./rpc-result.js";
import {
  HAS_EVENT,
  INSERT_EVENT,
  INSERT_SESSION,
  INSERT_TRACE,
  RELEASE_LEASE,
  SELECT_SESSION,
  SELECT_TRACES,
  SELECT_WINDOW_NEWEST_FIRST,
  SESSION_SQL_SCHEMA,
  SET_LEASE,
  type SessionRow,
  TOUCH_SESSION,
  TRIM_TRACES,
} from "./session-sql.js";
import { SessionTasks } from "./session-tasks.js";
import { migrate } from "./sql.js";
import { readState, writeState } from "./state-table.js";
import { CANCELED_TURN_MESSAGE } from "./task-rules.js";

/** `lease` is the presented lease, if any; a matching live lease is renewed for `leaseTtlMs`. */
export interface AppendInput {
  event: Event;
  lease?: string | undefined;
  leaseTtlMs: number;
}

export interface BeginTurnInput {
  event: Event;
  window: EventWindow;
  leaseTtlMs: number;
}

/** What the object returns: the session with its own state only (no `app:`/`user:` keys). */
export interface SessionRecord extends Session {}

const notFound = (): RpcResult<never> => refuse(new BatonError("session_not_found", "Session not found"));

const leaseOf = (row: SessionRow): Lease | null =>
  row.lease_token === null || row.lease_expires_at === null
    ? null
    : { token: row.lease_token, expiresAt: row.lease_expires_at };

/**
 * One session, `(app, user, session)`: its event log, its session-scoped state and the lease of the turn that
 * runs on it. The single writer makes appends serial; each event and its delta commit in one transaction.
 * Leases are judged by this object's clock.
 */
export class SessionObject extends DurableObject {
  readonly #tasks: SessionTasks;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.#tasks = new SessionTasks(ctx.storage);
    void ctx.blockConcurrencyWhile(async () => migrate(ctx.storage, SESSION_SQL_SCHEMA));
  }

  /**
   * Creates the session with its session-scoped initial state and its non-partial seed `events`, all in one
   * transaction; `session_exists` if it already exists, `invalid_request` (nothing created) for a repeated
   * event id.
   */
  create(key: SessionKey, state: StateMap, events: readonly Event[] = []): RpcResult<SessionRecord> {
    if (this.#row())
      return refuse(new BatonError("session_exists", `Session ${key.sessionId} already exists`));
    const seeds = events.filter((event) => !event.partial).map(persistedEvent);
    const repeated = seeds.find((event, i) => seeds.findIndex((e) => e.id === event.id) !== i);
    if (repeated) return refuse(new BatonError("invalid_request", `Event ${repeated.id} is already stored`));
    this.ctx.storage.transactionSync(() => {
      INSERT_SESSION.run(this.#sql, key.appName, key.userId, key.sessionId, Date.now() / 1000);
      writeState(this.#sql, state);
      for (const event of seeds) {
        INSERT_EVENT.first(this.#sql, event.id, event.timestamp, JSON.stringify(event));
        writeState(this.#sql, splitStateDelta(event.actions.stateDelta).session);
        TOUCH_SESSION.run(this.#sql, event.timestamp);
      }
    });
    return this.#snapshot({});
  }

  /** The session with the events `window` selects, or `null` if it does not exist. */
  get(window: EventWindow = {}): SessionRecord | null {
    const result = this.#snapshot(window);
    return result.ok ? result.value : null;
  }

  /** Appends a non-partial event under the lease rules of `SessionStore.appendEvent`. */
  append(input: AppendInput): RpcResult<null> {
    const row = this.#row();
    if (!row) return notFound();
    const now = Date.now();
    const verdict = judgeLease(leaseOf(row), input.lease, now);
    if (verdict !== "ok") return refuse(leaseError(verdict, row.session_id));
    const { lease } = input;
    const canceled = this.#tasks.canceledBy(input.event.invocationId);
    if (canceled !== undefined) return this.#recordCancel(input.event, canceled);
    return this.#write(input.event, () => {
      if (lease !== undefined) SET_LEASE.run(this.#sql, lease, now + input.leaseTtlMs);
    });
  }

  /**
   * Appends the user event and takes a fresh lease in one transaction; `session_busy` while one is live.
   * A user event already in the log (a resumed turn) is not appended again: only the lease is taken.
   */
  beginTurn(input: BeginTurnInput): RpcResult<{ session: SessionRecord; lease: string; resumed: boolean }> {
    const row = this.#row();
    if (!row) return notFound();
    const now = Date.now();
    const verdict = judgeLease(leaseOf(row), undefined, now);
    if (verdict !== "ok") return refuse(leaseError(verdict, row.session_id));
    const lease = crypto.randomUUID();
    const takeLease = () => SET_LEASE.run(this.#sql, lease, now + input.leaseTtlMs);
    const resumed = HAS_EVENT.first(this.#sql, input.event.id) !== undefined;
    if (resumed) takeLease();
    const written = resumed ? ok(null) : this.#write(input.event, takeLease);
    if (!written.ok) return written;
    const session = this.#snapshot(input.window);
    return session.ok ? ok({ session: session.value, lease, resumed }) : session;
  }

  /** Extends `lease` by `leaseTtlMs` if it is the live one; `lease_lost` otherwise. */
  renewLease(input: { lease: string; leaseTtlMs: number }): RpcResult<null> {
    const row = this.#row();
    if (!row) return notFound();
    const now = Date.now();
    const verdict = judgeLease(leaseOf(row), input.lease, now);
    if (verdict !== "ok") return refuse(leaseError(verdict, row.session_id));
    SET_LEASE.run(this.#sql, input.lease, now + input.leaseTtlMs);
    return ok(null);
  }

  /** Releases `lease` if it is the current one, and stores the turn's trace (the last few are kept). */
  endTurn(lease: string, trace?: TurnTrace): void {
    this.ctx.storage.transactionSync(() => {
      RELEASE_LEASE.run(this.#sql, lease);
      if (trace === undefined || !this.#row()) return;
      INSERT_TRACE.run(this.#sql, trace.invocationId, JSON.stringify(trace));
      TRIM_TRACES.run(this.#sql, TRACE_LIMITS.turnsPerSession);
    });
  }

  /** The stored turn traces, oldest first. */
  traces(): TurnTrace[] {
    return SELECT_TRACES.all(this.#sql);
  }

  /** `TaskStore.openTask` for this session. */
  openTask(taskId: string, invocationId: string, write: TaskWrite): TaskWriteResult {
    return this.#row() ? this.#tasks.open(taskId, invocationId, write) : { ok: false, reason: "missing" };
  }

  getTask(taskId: string): TaskRecord | null {
    return this.#tasks.get(taskId) ?? null;
  }

  writeTask(taskId: string, write: TaskWrite, options: TaskWriteOptions): TaskWriteResult {
    return this.#tasks.write(taskId, write, options);
  }

  publishTask(taskId: string, update: TaskPayload): void {
    this.#tasks.publish(taskId, update);
  }

  /** The task's feed as NDJSON (`TaskFeedEntry` per line), or `null` when the task does not exist. */
  followTask(taskId: string, followerId: string): ReadableStream<Uint8Array> | null {
    return this.#tasks.follow(taskId, followerId);
  }

  /** Ends the feed `followTask` opened for `followerId` from this side (a follower that stops early). */
  unfollowTask(followerId: string): void {
    this.#tasks.unfollow(followerId);
  }

  activeTask(): string | null {
    return this.#tasks.active();
  }

  /** Deletes everything, then lays the empty schema down again so the same id can be created anew. */
  async destroy(): Promise<void> {
    await this.ctx.storage.deleteAll();
    migrate(this.ctx.storage, SESSION_SQL_SCHEMA);
  }

  get #sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  #row(): SessionRow | undefined {
    return SELECT_SESSION.first(this.#sql);
  }

  /** Stores the event, its session-scoped delta and `lastUpdateTime`, plus `alsoWrite`, atomically. */
  #write(event: Event, alsoWrite: () => void): RpcResult<null> {
    const stored = persistedEvent(event);
    return this.ctx.storage.transactionSync(() => {
      const inserted = INSERT_EVENT.first(this.#sql, stored.id, stored.timestamp, JSON.stringify(stored));
      if (!inserted) return refuse(new BatonError("invalid_request", `Event ${stored.id} is already stored`));
      writeState(this.#sql, splitStateDelta(stored.actions.stateDelta).session);
      TOUCH_SESSION.run(this.#sql, stored.timestamp);
      alsoWrite();
      return ok(null);
    });
  }

  /**
   * A canceled turn's next append: the event is dropped and an error event by the same author records the
   * cancel in its place (the turn's last stored event), and the append is refused with `turn_canceled`.
   */
  #recordCancel(refused: Event, taskId: string): RpcResult<null> {
    const env = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => Date.now() } };
    const fields = { invocationId: refused.invocationId, author: refused.author };
    const marker = createEvent(
      { ...fields, errorCode: "TURN_CANCELED", errorMessage: CANCELED_TURN_MESSAGE },
      env,
    );
    const written = this.#write(marker, () => undefined);
    if (!written.ok) return written;
    return refuse(new BatonError("turn_canceled", `Task ${taskId} was canceled; its turn stops here`));
  }

  #snapshot(window: EventWindow): RpcResult<SessionRecord> {
    const row = this.#row();
    if (!row) return notFound();
    const limit = windowLimit(window);
    const newestFirst =
      limit === 0 ? [] : SELECT_WINDOW_NEWEST_FIRST.all(this.#sql, window.afterTimestamp ?? null, limit);
    return ok({
      id: row.session_id,
      appName: row.app_name,
      userId: row.user_id,
      state: readState(this.#sql),
      events: newestFirst.reverse(),
      lastUpdateTime: row.last_update_time,
    });
  }
}
