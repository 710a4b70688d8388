import { DurableObject } from "cloudflare:workers";
import { SessionTasks } from "../a2a/tasks/session-tasks.js";
import { reportTask } from "../a2a/tasks/task-index-report.js";
import { pushQueueOf, TaskPushConfigs } from "../a2a/tasks/task-push.js";
import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { type NewReminder, PENDING_REMINDERS_KEY, type Reminder } from "../core/reminder.js";
import type { SessionKey } from "../core/session.js";
import { CANCEL_MESSAGES, type EventWindow } from "../core/session-store.js";
import type { StateMap } from "../core/state.js";
import type {
  PushConfig,
  PushConfigSaved,
  TaskPayload,
  TaskRecord,
  TaskWrite,
  TaskWriteOptions,
  TaskWriteResult,
} from "../core/task-store.js";
import type { TurnTrace } from "../core/trace.js";
import { LIVE_URL, LiveSockets } from "../live/live-sockets.js";
import { reminderConcern, reminderQueueOf } from "../schedules/reminder-concern.js";
import { type ReminderSet, SessionReminders } from "../schedules/session-reminders.js";
import { seedEvents } from "../session/persisted-event.js";
import { type IndexedEntry, SessionLog } from "../session/session-log.js";
import {
  type AppendInput,
  type BeginTurnInput,
  notFound,
  type SessionRecord,
  type TraceRow,
  type TurnBegun,
} from "../session/session-records.js";
import { AlarmDispatcher } from "../storage/alarm-dispatcher.js";
import { sessionObjectName } from "../storage/object-names.js";
import { attempt, ok, type RpcResult, refuse } from "../storage/rpc-result.js";
import { migrate } from "../storage/sql.js";
import { type ObjectTurnLines, ObjectTurns } from "../turns/object-turns.js";
import { TurnMarkers } from "../turns/resume-concern.js";
import { turnConcerns } from "../turns/turn-concerns.js";
import { type ObjectTurnRequest, SSE_TURN_URL } from "../turns/turn-hosts.js";
import { TurnWrites } from "../turns/turn-writes.js";
import { SESSION_SQL_SCHEMA } from "./session-schema.js";

export { ISOLATE_CACHE_BYTES, OBJECT_CACHE_BYTES } from "../session/session-log.js";

/**
 * One session, `(app, user, session)`: its event log, its session-scoped state and the lease of the turn that
 * runs on it. The single writer makes appends serial; each event and its delta commit in one transaction.
 * The class is the RPC surface; each concern lives in its own module: the log and its cache
 * (`SessionLog`), the turn's lease and writes (`TurnWrites`), A2A tasks (`SessionTasks`) and reminders
 * (`SessionReminders`, fired by the shared `AlarmDispatcher`).
 */
export class SessionObject extends DurableObject {
  readonly #log: SessionLog;
  readonly #turns: TurnWrites;
  readonly #tasks: SessionTasks;
  readonly #push: TaskPushConfigs;
  readonly #reminders: SessionReminders;
  readonly #alarms: AlarmDispatcher;
  readonly #running: ObjectTurns;
  readonly #live: LiveSockets;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.#log = new SessionLog(ctx.storage);
    this.#tasks = new SessionTasks(ctx.storage);
    this.#push = new TaskPushConfigs(ctx.storage, () => pushQueueOf(env));
    const markers = new TurnMarkers(ctx.storage.kv);
    this.#turns = new TurnWrites(
      ctx.storage,
      this.#log,
      this.#tasks,
      markers,
      () => this.#alarms.reschedule(),
      (host) => this.#running.remember(host),
    );
    this.#reminders = new SessionReminders(ctx.storage);
    const reminders = reminderConcern({
      reminders: this.#reminders,
      session: () => this.#key(),
      queue: () => reminderQueueOf(env),
      log: (message) => console.warn(message),
      changed: () => this.#showReminders(),
    });
    // SAFETY: a Worker's env is a record of its bindings and vars by name.
    const bindings = env as unknown as Record<string, unknown>;
    this.#live = new LiveSockets(ctx, bindings, this, () => this.#alarms.reschedule());
    this.#running = new ObjectTurns({
      kv: ctx.storage.kv,
      env: bindings,
      keepAlive: (work) => ctx.waitUntil(work),
      inside: (appName, { userId, sessionId }) => ({
        name: sessionObjectName({ appName, userId, sessionId }),
        object: this,
      }),
      turnRuns: () => this.#turns.signals.running !== null,
      now: Date.now,
    });
    const turnAlarms = turnConcerns({
      markers,
      turns: this.#turns,
      running: this.#running,
      lease: () => this.#log.load()?.meta.lease ?? null,
      session: () => this.#key(),
      queue: () => reminderQueueOf(env),
      log: (message) => console.warn(message),
    });
    this.#alarms = new AlarmDispatcher(ctx.storage, [reminders, ...turnAlarms.concerns, this.#live.idle]);
    void ctx.blockConcurrencyWhile(async () => {
      migrate(ctx.storage, SESSION_SQL_SCHEMA);
      // A turn that ran here when the object last stopped died with it, and turns that waited in line then
      // are orphans: the alarm resumes and runs them at once (decision 047), or when their grace is over.
      if (turnAlarms.dueAtStart()) await this.#alarms.reschedule();
    });
  }

  /** The session's key, or `null` when it does not exist. */
  #key(): SessionKey | null {
    const meta = this.#log.load()?.meta;
    return meta ? { appName: meta.appName, userId: meta.userId, sessionId: meta.sessionId } : null;
  }

  /**
   * Schedules a reminder of this session (`ReminderStore.set`): a pending one with the same key is
   * replaced; `invalid_request` past the per-session limit. The alarm is moved to the soonest one.
   */
  async setReminder(input: NewReminder): Promise<RpcResult<ReminderSet>> {
    if (!this.#log.load()) return notFound();
    const set = attempt(() => this.#reminders.set(input, crypto.randomUUID(), Date.now()));
    if (!set.ok) return set;
    this.#showReminders();
    await this.#alarms.reschedule();
    return set;
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
    const cache = this.#log.load();
    if (cache) this.#log.writeOwnState(cache, { [PENDING_REMINDERS_KEY]: this.#reminders.shown() });
  }

  /**
   * Creates the session with its session-scoped initial state and its non-partial seed `events`, all in one
   * transaction; `session_exists` if it already exists, `invalid_request` (nothing created) for a repeated
   * event id.
   */
  create(key: SessionKey, state: StateMap, events: readonly Event[] = []): RpcResult<SessionRecord> {
    if (this.#log.load())
      return refuse(new BatonError("session_exists", `Session ${key.sessionId} already exists`));
    const seeded = seedEvents(events);
    if (!seeded.ok)
      return refuse(new BatonError("invalid_request", `Event ${seeded.repeated} is already stored`));
    // The new session is read back (and checked) as any cold read would read it.
    this.#log.create(key, state, seeded.seeds);
    return this.#log.snapshot({});
  }

  /**
   * The session with the events `window` selects, or `null` if it does not exist; `storage_error` for a
   * stored row zod refuses.
   */
  get(window: EventWindow = {}): RpcResult<SessionRecord | null> {
    const result = this.#log.snapshot(window);
    return result.ok || result.code !== "session_not_found" ? result : ok(null);
  }

  /** What the user's session index keeps of it (decision 046); `null` when the session does not exist. */
  indexEntry(): IndexedEntry | null {
    return this.#log.indexEntry(Date.now());
  }

  /** `SessionStore.listEvents`: the events after seq `after`, oldest first (`SessionLog.page`). */
  eventPage(after: number, size: number, maxBytes: number) {
    return this.#log.page(after, size, maxBytes);
  }

  /**
   * Appends a non-partial event under the lease rules of `SessionStore.appendEvent`; answers the stored
   * row's size in UTF-8 bytes.
   */
  append(input: AppendInput): RpcResult<number> {
    return this.#turns.append(input);
  }

  /**
   * Appends the user event and takes a fresh lease in one transaction; `session_busy` while one is live.
   * A user event already in the log (a resumed turn) is not appended again: only the lease is taken.
   */
  beginTurn(input: BeginTurnInput): Promise<RpcResult<TurnBegun>> {
    return this.#turns.beginTurn(input);
  }

  /**
   * Runs a turn here, in the session's object (decision 040): begins it with the app the Worker registered
   * (refusals answered before any event) and answers its events as `TurnLine`s, on an NDJSON stream or
   * (`toEnd`) all at once when the turn ended. The turn runs to its end whatever the reader does; the
   * object's alarm beats while it runs, so it is not evicted. `null`: this isolate has no such host, and
   * the Worker runs the turn itself.
   */
  runTurn(input: ObjectTurnRequest, toEnd?: boolean): Promise<RpcResult<ObjectTurnLines | null>> {
    return this.#running.run(input, toEnd);
  }

  /**
   * The object's HTTP routes: `/run_sse`'s turn (`SSE_TURN_URL`, decision 045), whose frames stream back as
   * the response body, and a live call's WebSocket (`LIVE_URL`, decision 055). Everything else is RPC.
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.url === LIVE_URL) return this.#live.accept(request);
    if (request.method !== "POST" || request.url !== SSE_TURN_URL)
      return Response.json({ detail: "Not Found" }, { status: 404 });
    // SAFETY: only a Worker holding this object's binding reaches its fetch; the body is the JSON of the
    // `ObjectTurnRequest` its `/run_sse` built (`startObjectSse`), as an RPC would pass it.
    return this.#running.sse((await request.json()) as ObjectTurnRequest);
  }

  /** The Hibernation API's handlers: only live calls' sockets are accepted here (`LiveSockets`). */
  override webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    return this.#live.message(socket, message);
  }
  override webSocketClose(socket: WebSocket): Promise<void> {
    return this.#live.closed(socket);
  }
  override webSocketError(socket: WebSocket): Promise<void> {
    return this.#live.closed(socket);
  }

  /** Ends the stream `runTurn` answered from the reader's side (a client that left); the turn runs on. */
  stopTurnStream(streamId: string): void {
    this.#running.stop(streamId);
  }

  /** Resolves once no turn runs in this object: what a drain, or a test of a turn whose client left, waits for. */
  turnsSettled(): Promise<void> {
    return this.#running.idle();
  }

  /** `SessionStore.cancelTurn`: stops the running turn, stores its cancel event; `null` when none runs. */
  cancelTurn(message?: string): RpcResult<Event | null> {
    return this.#turns.cancel(message);
  }

  /**
   * `SessionStore.watchTurn`: resolves with the cancel event once `lease`'s turn is canceled, `null` once it
   * ends otherwise. The running turn holds this call open; it keeps the object alive while the turn runs.
   */
  watchTurn(lease: string): Promise<Event | null> {
    return this.#turns.signals.watch(lease);
  }

  /** Extends `lease` by `leaseTtlMs` if it is the live one; `lease_lost` otherwise. */
  renewLease(input: { lease: string; leaseTtlMs: number }): RpcResult<null> {
    return this.#turns.renewLease(input);
  }

  /**
   * Releases `lease` if it is the current one, and stores the turn's trace (the last few are kept): as the
   * JSON the store sends (`TraceRow`, a string crosses RPC as a copy of its bytes), or as an object.
   */
  endTurn(lease: string, trace?: TurnTrace | TraceRow): Promise<void> {
    return this.#turns.endTurn(lease, trace);
  }

  /** The stored turn traces, oldest first. */
  traces(): TurnTrace[] {
    return this.#turns.traces();
  }

  /**
   * `SessionStore.followInvocation`: NDJSON of the invocation's stored events after `after`, then its live
   * ones until its turn ends; `null` for an invocation unknown here.
   */
  followInvocation(
    invocationId: string,
    after: string | undefined,
    followerId: string,
  ): ReadableStream<Uint8Array> | null {
    return this.#turns.followInvocation(invocationId, after, followerId);
  }

  /** Ends the stream `followInvocation` opened for `followerId` from this side. */
  unfollowInvocation(followerId: string): void {
    this.#turns.feeds.unfollow(followerId);
  }

  /** `TaskStore.openTask` for this session; the app's task index hears of the task once it is stored. */
  async openTask(taskId: string, invocationId: string, write: TaskWrite): Promise<TaskWriteResult> {
    if (!this.#log.load()) return { ok: false, reason: "missing" };
    return this.#indexed(this.#tasks.open(taskId, invocationId, write));
  }

  getTask(taskId: string): TaskRecord | null {
    return this.#tasks.get(taskId) ?? null;
  }

  /** A cancel (`options.cancel`) of the running turn's task stops that turn at once (`cancelTurn`). */
  async writeTask(taskId: string, write: TaskWrite, options: TaskWriteOptions): Promise<TaskWriteResult> {
    const written = this.#tasks.write(taskId, write, options);
    if (written.ok && options.cancel)
      this.#turns.cancelInvocation(written.record.invocationId, CANCEL_MESSAGES.taskCanceled);
    return this.#indexed(written);
  }

  /**
   * After a stored task write, when the session (and so its key) exists: the app's task index hears of
   * it, and each of the task's push configs gets a delivery.
   */
  async #indexed(result: TaskWriteResult): Promise<TaskWriteResult> {
    const meta = this.#log.load()?.meta;
    if (!result.ok || !meta) return result;
    await reportTask(this.env, meta, result.record);
    await this.#push.notify(meta, result.record);
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
    await this.ctx.storage.deleteAlarm(); // `deleteAll` takes it only from compatibility date 2026-02-24
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
    this.#log.drop();
    this.#turns.dropCache();
  }
}
