import { DurableObject } from "cloudflare:workers";
import * as z from "zod";
import { BatonError } from "../core/errors.js";
import { createEvent, type Event } from "../core/event.js";
import { deepFreeze } from "../core/frozen.js";
import { type NewReminder, PENDING_REMINDERS_KEY, type Reminder } from "../core/reminder.js";
import type { Session, SessionKey } from "../core/session.js";
import type { EventWindow } from "../core/session-store.js";
import { type StateMap, splitStateDelta } from "../core/state.js";
import type {
  PushConfig,
  PushConfigSaved,
  TaskPayload,
  TaskRecord,
  TaskWrite,
  TaskWriteOptions,
  TaskWriteResult,
} from "../core/task-store.js";
import { TRACE_LIMITS, type TurnTrace } from "../core/trace.js";
import { AlarmDispatcher } from "./alarm-dispatcher.js";
import { CacheLedger } from "./cache-ledger.js";
import { windowLimit } from "./event-window.js";
import { type HeldRows, type WindowRows, windowAnswer } from "./held-rows.js";
import { judgeLease, leaseError } from "./lease.js";
import { persistedEvent } from "./persisted-event.js";
import { reminderConcern, reminderQueueOf } from "./reminder-concern.js";
import { ok, type RpcResult, refuse } from "./rpc-result.js";
import { type CachedRow, SessionCache, type SessionMeta } from "./session-cache.js";
import { SessionReminders } from "./session-reminders.js";
import {
  cachedRow,
  HAS_EVENT,
  INSERT_EVENT,
  INSERT_SESSION,
  INSERT_TRACE,
  RELEASE_LEASE,
  SELECT_OLDER_NEWEST_FIRST,
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
import { reportTask } from "./task-index-report.js";
import { pushQueueOf, TaskPushConfigs } from "./task-push.js";
import { CANCELED_TURN_MESSAGE } from "./task-rules.js";

/** Counts the UTF-8 bytes of each row written, for the turn's trace (`core/stored-size.ts`). */
const encoder = new TextEncoder();

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
  /**
   * What the caller already holds of the log (`null`: nothing yet). Given, a count window is answered with
   * `rows`, and with only the events after the held ones when those can be reused (decision 025).
   */
  held?: HeldRows | null;
}

/**
 * A begun turn: the session as the turn starts, its lease, and whether its user event was stored before.
 * With `rows` (the caller passed `held`), `session.events` are the events `rows` describes.
 */
export interface TurnBegun {
  session: SessionRecord;
  lease: string;
  resumed: boolean;
  rows?: WindowRows;
}

/** A turn trace as the store sends it to `endTurn`: its invocation and its JSON, serialised in the Worker. */
export interface TraceRow {
  invocationId: string;
  json: string;
}

/** What the object returns: the session with its own state only (no `app:`/`user:` keys). */
export interface SessionRecord extends Session {}

const notFound = (): RpcResult<never> => refuse(new BatonError("session_not_found", "Session not found"));

/**
 * `read`'s result, or a `storage_error` refusal naming the fields when a stored row fails its zod check.
 * Thrown out of an RPC method, that error would reach the caller too, but workerd also reports it as an
 * uncaught exception of the object; returned, it is the caller's alone.
 */
function readable<T>(read: () => RpcResult<T>): RpcResult<T> {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    return refuse(new BatonError("storage_error", `A stored row is invalid: ${z.prettifyError(error)}`));
  }
}

const metaOf = (row: SessionRow): SessionMeta => ({
  appName: row.app_name,
  userId: row.user_id,
  sessionId: row.session_id,
  lastUpdateTime: row.last_update_time,
  lease:
    row.lease_token === null || row.lease_expires_at === null
      ? null
      : { token: row.lease_token, expiresAt: row.lease_expires_at },
  epoch: row.epoch,
});

/**
 * Cache budgets in bytes of event JSON (the parsed objects take a few times that in the heap): one object
 * keeps at most 8 MiB of its newest events, and all session objects of an isolate 16 MiB together, well
 * inside the isolate's 128 MB. A window larger than that is read from SQL, checked again, each time.
 */
export const OBJECT_CACHE_BYTES = 8 * 2 ** 20;
export const ISOLATE_CACHE_BYTES = 16 * 2 ** 20;
const ledger = new CacheLedger(ISOLATE_CACHE_BYTES);

/** The largest row seq SQLite can hold: "before it" means every row. */
const END_OF_LOG = Number.MAX_SAFE_INTEGER;

/**
 * One session, `(app, user, session)`: its event log, its session-scoped state and the lease of the turn that
 * runs on it. The single writer makes appends serial; each event and its delta commit in one transaction.
 * Leases are judged by this object's clock.
 *
 * While it lives, the object keeps what it has read or written of the session in a `SessionCache`: every row
 * is checked with zod once, when it enters the cache, and reads after a write see the write because writes
 * go to the cache right after their transaction commits. Budgets above bound it.
 */
export class SessionObject extends DurableObject {
  readonly #tasks: SessionTasks;
  readonly #push: TaskPushConfigs;
  readonly #reminders: SessionReminders;
  readonly #alarms: AlarmDispatcher;
  #cache: SessionCache | null = null;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.#tasks = new SessionTasks(ctx.storage);
    this.#push = new TaskPushConfigs(ctx.storage, () => pushQueueOf(env));
    this.#reminders = new SessionReminders(ctx.storage);
    const reminders = reminderConcern({
      reminders: this.#reminders,
      session: () => {
        const meta = this.#load()?.meta;
        return meta ? { appName: meta.appName, userId: meta.userId, sessionId: meta.sessionId } : null;
      },
      queue: () => reminderQueueOf(env),
      log: (message) => console.warn(message),
      changed: () => this.#showReminders(),
    });
    this.#alarms = new AlarmDispatcher(ctx.storage, [reminders]);
    void ctx.blockConcurrencyWhile(async () => migrate(ctx.storage, SESSION_SQL_SCHEMA));
  }

  /**
   * Schedules a reminder of this session (`ReminderStore.set`): a pending one with the same key is
   * replaced; `invalid_request` past the per-session limit. The alarm is moved to the soonest one.
   */
  async setReminder(
    input: NewReminder,
  ): Promise<RpcResult<{ reminder: Reminder; replaced: Reminder | null }>> {
    if (!this.#load()) return notFound();
    let set: { reminder: Reminder; replaced: Reminder | null };
    try {
      set = this.#reminders.set(input, crypto.randomUUID(), Date.now());
    } catch (error) {
      if (error instanceof BatonError) return refuse(error);
      throw error;
    }
    this.#showReminders();
    await this.#alarms.reschedule();
    return ok(set);
  }

  /** The pending reminders, soonest first. */
  reminders(): Reminder[] {
    return this.#reminders.list();
  }

  /** Cancels the pending reminder with this key (or id); `null` when there is none. */
  async cancelReminder(keyOrId: string): Promise<Reminder | null> {
    const cancelled = this.#reminders.cancel(keyOrId);
    if (cancelled) {
      this.#showReminders();
      await this.#alarms.reschedule();
    }
    return cancelled;
  }

  /** One alarm for every timed concern of the session (reminders): each due one runs, then it is set again. */
  override async alarm(): Promise<void> {
    await this.#alarms.fire(Date.now());
  }

  /**
   * Shows the pending reminders in the session's state under `_reminders` (the dev UI's State tab), written
   * by the object alone, not by an event: it mirrors the reminders table and is never a turn's change.
   */
  #showReminders(): void {
    const cache = this.#load();
    if (!cache) return;
    const pending = this.#reminders.list().map((r) => ({
      id: r.id,
      ...(r.key === undefined ? {} : { key: r.key }),
      message: r.message,
      dueAt: new Date(r.dueAt).toISOString(),
    }));
    const written = this.ctx.storage.transactionSync(() =>
      writeState(this.#sql, { [PENDING_REMINDERS_KEY]: pending }),
    );
    Object.assign(cache.state, deepFreeze(written));
  }

  /**
   * Creates the session with its session-scoped initial state and its non-partial seed `events`, all in one
   * transaction; `session_exists` if it already exists, `invalid_request` (nothing created) for a repeated
   * event id.
   */
  create(key: SessionKey, state: StateMap, events: readonly Event[] = []): RpcResult<SessionRecord> {
    if (this.#load())
      return refuse(new BatonError("session_exists", `Session ${key.sessionId} already exists`));
    const seeds = events.filter((event) => !event.partial).map(persistedEvent);
    const repeated = seeds.find((event, i) => seeds.findIndex((e) => e.id === event.id) !== i);
    if (repeated) return refuse(new BatonError("invalid_request", `Event ${repeated.id} is already stored`));
    this.ctx.storage.transactionSync(() => {
      const epoch = crypto.randomUUID();
      INSERT_SESSION.run(this.#sql, key.appName, key.userId, key.sessionId, Date.now() / 1000, epoch);
      writeState(this.#sql, state);
      for (const event of seeds) {
        INSERT_EVENT.first(this.#sql, event.id, event.timestamp, JSON.stringify(event));
        writeState(this.#sql, splitStateDelta(event.actions.stateDelta).session);
        TOUCH_SESSION.run(this.#sql, event.timestamp);
      }
    });
    // The new session is read back (and checked) as any cold read would read it.
    this.dropCache();
    return this.#snapshot({});
  }

  /**
   * The session with the events `window` selects, or `null` if it does not exist; `storage_error` for a
   * stored row zod refuses.
   */
  get(window: EventWindow = {}): RpcResult<SessionRecord | null> {
    const result = this.#snapshot(window);
    return result.ok || result.code !== "session_not_found" ? result : ok(null);
  }

  /**
   * Appends a non-partial event under the lease rules of `SessionStore.appendEvent`; answers the stored
   * row's size in UTF-8 bytes.
   */
  append(input: AppendInput): RpcResult<number> {
    return readable(() => this.#append(input));
  }

  #append(input: AppendInput): RpcResult<number> {
    const cache = this.#load();
    if (!cache) return notFound();
    const now = Date.now();
    const verdict = judgeLease(cache.meta.lease, input.lease, now);
    if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
    const { lease } = input;
    const canceled = this.#tasks.canceledBy(input.event.invocationId);
    if (canceled !== undefined) return this.#recordCancel(cache, input.event, canceled);
    const renewed = lease === undefined ? undefined : { token: lease, expiresAt: now + input.leaseTtlMs };
    return this.#write(cache, input.event, renewed);
  }

  /**
   * Appends the user event and takes a fresh lease in one transaction; `session_busy` while one is live.
   * A user event already in the log (a resumed turn) is not appended again: only the lease is taken.
   */
  beginTurn(input: BeginTurnInput): RpcResult<TurnBegun> {
    return readable(() => this.#beginTurn(input));
  }

  #beginTurn(input: BeginTurnInput): RpcResult<TurnBegun> {
    const cache = this.#load();
    if (!cache) return notFound();
    const now = Date.now();
    const verdict = judgeLease(cache.meta.lease, undefined, now);
    if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
    const lease = { token: crypto.randomUUID(), expiresAt: now + input.leaseTtlMs };
    const resumed = HAS_EVENT.first(this.#sql, input.event.id) !== undefined;
    if (resumed) this.#setLease(cache, lease);
    const written = resumed ? ok(null) : this.#write(cache, input.event, lease);
    if (!written.ok) return written;
    if (input.held === undefined || input.window.afterTimestamp !== undefined) {
      const session = this.#snapshot(input.window);
      return session.ok ? ok({ session: session.value, lease: lease.token, resumed }) : session;
    }
    const answer = windowAnswer(this.#rows(cache, input.window), cache.meta.epoch, input.held);
    const session = { ...this.#record(cache), events: answer.events };
    return ok({ session, lease: lease.token, resumed, rows: answer.rows });
  }

  /** Extends `lease` by `leaseTtlMs` if it is the live one; `lease_lost` otherwise. */
  renewLease(input: { lease: string; leaseTtlMs: number }): RpcResult<null> {
    return readable(() => this.#renewLease(input));
  }

  #renewLease(input: { lease: string; leaseTtlMs: number }): RpcResult<null> {
    const cache = this.#load();
    if (!cache) return notFound();
    const now = Date.now();
    const verdict = judgeLease(cache.meta.lease, input.lease, now);
    if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
    this.#setLease(cache, { token: input.lease, expiresAt: now + input.leaseTtlMs });
    return ok(null);
  }

  /**
   * Releases `lease` if it is the current one, and stores the turn's trace (the last few are kept): as the
   * JSON the store sends (`TraceRow`, a string crosses RPC as a copy of its bytes), or as an object.
   */
  endTurn(lease: string, trace?: TurnTrace | TraceRow): void {
    const cache = this.#load();
    this.ctx.storage.transactionSync(() => {
      RELEASE_LEASE.run(this.#sql, lease);
      if (trace === undefined || !cache) return;
      const json = "json" in trace ? trace.json : JSON.stringify(trace);
      INSERT_TRACE.run(this.#sql, trace.invocationId, json);
      TRIM_TRACES.run(this.#sql, TRACE_LIMITS.turnsPerSession);
    });
    if (cache?.meta.lease?.token === lease) cache.meta.lease = null;
  }

  /** The stored turn traces, oldest first. */
  traces(): TurnTrace[] {
    return SELECT_TRACES.all(this.#sql);
  }

  /** `TaskStore.openTask` for this session; the app's task index hears of the task once it is stored. */
  async openTask(taskId: string, invocationId: string, write: TaskWrite): Promise<TaskWriteResult> {
    const cache = this.#load();
    if (!cache) return { ok: false, reason: "missing" };
    return this.#indexed(cache, this.#tasks.open(taskId, invocationId, write));
  }

  getTask(taskId: string): TaskRecord | null {
    return this.#tasks.get(taskId) ?? null;
  }

  async writeTask(taskId: string, write: TaskWrite, options: TaskWriteOptions): Promise<TaskWriteResult> {
    const cache = this.#load();
    const written = this.#tasks.write(taskId, write, options);
    return cache ? this.#indexed(cache, written) : written;
  }

  /** After a task write commits: the app's task index hears of it, and its push configs get a delivery. */
  async #indexed(cache: SessionCache, result: TaskWriteResult): Promise<TaskWriteResult> {
    if (!result.ok) return result;
    await reportTask(this.env, cache.meta, result.record);
    await this.#push.notify(cache.meta, result.record);
    return result;
  }

  /** `TaskStore.savePushConfig` for this session's task. */
  savePushConfig(taskId: string, config: PushConfig): PushConfigSaved {
    return this.#tasks.get(taskId) ? this.#push.save(taskId, config) : "missing";
  }

  /** The task's push configs; `null` when the task does not exist. */
  pushConfigs(taskId: string): PushConfig[] | null {
    return this.#tasks.get(taskId) ? this.#push.list(taskId) : null;
  }

  deletePushConfig(taskId: string, configId: string): boolean {
    if (!this.#tasks.get(taskId)) return false;
    this.#push.delete(taskId, configId);
    return true;
  }

  /** What a push delivery sends: the task as it stands and the config, or `null` when either is gone. */
  pushTarget(taskId: string, configId: string): { record: TaskRecord; config: PushConfig } | null {
    const record = this.#tasks.get(taskId);
    const config = record && this.#push.list(taskId).find((c) => c.id === configId);
    return record && config ? { record, config } : null;
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
    this.dropCache();
    await this.ctx.storage.deleteAll();
    migrate(this.ctx.storage, SESSION_SQL_SCHEMA);
    // A read that slipped in while storage was being deleted must not outlive it.
    this.dropCache();
  }

  /**
   * Forgets the cached session; the next read loads and checks it from SQL again. For code that writes this
   * object's tables other than through its methods (a subclass's bulk import).
   */
  protected dropCache(): void {
    this.#cache = null;
    ledger.forget(this);
  }

  get #sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  /** The cached session, loading its row and state (not yet its events) on first use; `null` if none. */
  #load(): SessionCache | null {
    if (this.#cache) return this.#cache;
    const row = SELECT_SESSION.first(this.#sql);
    if (!row) return null;
    const state = readState(this.#sql);
    // Values are frozen, the map itself is written in place by later deltas.
    for (const value of Object.values(state)) deepFreeze(value);
    this.#cache = new SessionCache(metaOf(row), state);
    return this.#cache;
  }

  #setLease(cache: SessionCache, lease: { token: string; expiresAt: number }): void {
    SET_LEASE.run(this.#sql, lease.token, lease.expiresAt);
    cache.meta.lease = lease;
  }

  /** Charges the cache to the budgets: trims it to this object's, then lets the isolate's drop old caches. */
  #charge(cache: SessionCache): void {
    cache.trim(OBJECT_CACHE_BYTES);
    ledger.charge(this, cache.bytes, () => {
      if (this.#cache === cache) this.#cache = null;
    });
  }

  /**
   * Stores the event, its session-scoped delta and `lastUpdateTime`, plus the `lease` if given, atomically;
   * then, the transaction committed, the same into the cache (the event checked once, as a read would).
   * Answers the row's size in UTF-8 bytes (what the turn's trace counts as written).
   */
  #write(cache: SessionCache, event: Event, lease?: { token: string; expiresAt: number }): RpcResult<number> {
    const stored = persistedEvent(event);
    const json = JSON.stringify(stored);
    const written = this.ctx.storage.transactionSync(() => {
      const inserted = INSERT_EVENT.first(this.#sql, stored.id, stored.timestamp, json);
      if (!inserted) return undefined;
      const state = writeState(this.#sql, splitStateDelta(stored.actions.stateDelta).session);
      TOUCH_SESSION.run(this.#sql, stored.timestamp);
      if (lease) SET_LEASE.run(this.#sql, lease.token, lease.expiresAt);
      return { seq: inserted.seq, state };
    });
    if (!written) return refuse(new BatonError("invalid_request", `Event ${stored.id} is already stored`));
    Object.assign(cache.state, deepFreeze(written.state));
    cache.meta.lastUpdateTime = stored.timestamp;
    if (lease) cache.meta.lease = lease;
    cache.append(cachedRow(written.seq, json));
    this.#charge(cache);
    return ok(encoder.encode(json).byteLength);
  }

  /**
   * A canceled turn's next append: the event is dropped and an error event by the same author records the
   * cancel in its place (the turn's last stored event), and the append is refused with `turn_canceled`.
   */
  #recordCancel(cache: SessionCache, refused: Event, taskId: string): RpcResult<never> {
    const env = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => Date.now() } };
    const fields = { invocationId: refused.invocationId, author: refused.author };
    const marker = createEvent(
      { ...fields, errorCode: "TURN_CANCELED", errorMessage: CANCELED_TURN_MESSAGE },
      env,
    );
    const written = this.#write(cache, marker);
    if (!written.ok) return written;
    return refuse(new BatonError("turn_canceled", `Task ${taskId} was canceled; its turn stops here`));
  }

  #snapshot(window: EventWindow): RpcResult<SessionRecord> {
    return readable(() => this.#read(window));
  }

  #read(window: EventWindow): RpcResult<SessionRecord> {
    const cache = this.#load();
    if (!cache) return notFound();
    return ok({ ...this.#record(cache), events: this.#events(cache, window) });
  }

  /** The session as a record without its events. */
  #record(cache: SessionCache): Omit<SessionRecord, "events"> {
    const { meta } = cache;
    return {
      id: meta.sessionId,
      appName: meta.appName,
      userId: meta.userId,
      state: { ...cache.state },
      lastUpdateTime: meta.lastUpdateTime,
    };
  }

  /** The window's events from the cache; a time window over a partly cached log is read from SQL directly. */
  #events(cache: SessionCache, window: EventWindow): Event[] {
    if (window.afterTimestamp === undefined) return this.#rows(cache, window).map((row) => row.event);
    const cached = cache.window(window);
    if (cached) return cached;
    const newestFirst = SELECT_WINDOW_NEWEST_FIRST.all(this.#sql, window.afterTimestamp, windowLimit(window));
    return newestFirst.reverse();
  }

  /** A count window's rows from the cache, first growing it backwards from SQL when it holds too few. */
  #rows(cache: SessionCache, window: EventWindow): CachedRow[] {
    const cached = cache.rows(window);
    if (cached) return cached;
    const limit = windowLimit(window);
    const missing = limit < 0 ? -1 : limit - cache.size;
    const before = Math.min(cache.oldestSeq, END_OF_LOG);
    const older = SELECT_OLDER_NEWEST_FIRST.all(this.#sql, before, missing).reverse();
    cache.prepend(older, missing < 0 || older.length < missing);
    const rows = cache.rows(window) ?? [];
    this.#charge(cache);
    return rows;
  }
}
