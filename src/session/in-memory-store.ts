import { InMemoryTasks } from "../a2a/tasks/in-memory-tasks.js";
import { BatonError } from "../core/errors.js";
import { createEvent, type Event, EventSchema } from "../core/event.js";
import { deepFreeze } from "../core/frozen.js";
import type { Clock, IdSource } from "../core/ids.js";
import { frozenWithMemo } from "../core/memo.js";
import { answersTo, newestFirst, openCalls, unansweredMessage } from "../core/open-calls.js";
import { assertSafeSeeds, assertSafeState } from "../core/safe-shape.js";
import type { Session, SessionKey } from "../core/session.js";
import type { EventPage, EventPageRequest, SessionPage, SessionPageRequest } from "../core/session-pages.js";
import {
  type BeginTurnOptions,
  CANCEL_MESSAGES,
  type CreateSessionRequest,
  type EventWindow,
  type SessionStore,
  type TurnStart,
} from "../core/session-store.js";
import { hasKeys, mergeScopedState, type StateMap, splitStateDelta } from "../core/state.js";
import type {
  PushConfig,
  PushConfigSaved,
  TaskKey,
  TaskListQuery,
  TaskPayload,
  TaskStore,
  TaskWrite,
  TaskWriteOptions,
} from "../core/task-store.js";
import { TRACE_LIMITS, type TurnTrace, TurnTraceSchema, withStoredSize } from "../core/trace.js";
import { jsonLines } from "../storage/feed-lines.js";
import { selectWindow } from "./event-window.js";
import { eventPageOf, listedOf, sessionPageOf } from "./in-memory-pages.js";
import { missedEvents } from "./invocation-feeds.js";
import { DEFAULT_LEASE_TTL_MS, judgeLease, type Lease, leaseError, replacedError } from "./lease.js";
import { mergedUserEvent } from "./waiting-line.js";

export type { InMemorySessionStoreOptions } from "./in-memory-records.js";

const encoder = new TextEncoder();

import {
  canceledTurn,
  type InMemorySessionStoreOptions,
  newStoredSession,
  type StoredSession,
  scopeKey,
  scopeOf,
} from "./in-memory-records.js";
import { persistedEvent, sharingEmptyMaps } from "./persisted-event.js";

/**
 * A `SessionStore` and `TaskStore` in process memory, for tests and Node. Stored events and state values are
 * deeply frozen and shared with every reader, never copied: a turn costs the same at 10 events as at 10,000
 * (bar the window it reads). What a read returns is a fresh array of events and a fresh state map, so a
 * caller may push to the one and assign keys of the other; changing a stored event or value throws.
 */
export class InMemorySessionStore implements SessionStore, TaskStore {
  readonly #clock: Clock;
  readonly #ids: IdSource;
  readonly #leaseTtlMs: number;
  readonly #apps = new Map<string, StateMap>();
  readonly #users = new Map<string, StateMap>();
  /** (app, user) → session id → session, in creation order. */
  readonly #sessions = new Map<string, Map<string, StoredSession>>();
  readonly #tasks: InMemoryTasks;
  #created = 0;
  /** The stored traces of a session, copied; only on a store made with `traces: true`. */
  readonly listTraces?: (key: SessionKey) => Promise<TurnTrace[]>;

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.#clock = options.clock ?? { now: () => Date.now() };
    this.#ids = options.ids ?? { uuid: () => crypto.randomUUID() };
    this.#leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    this.#tasks = new InMemoryTasks(options.onPush);
    if (options.traces) this.listTraces = async (key) => this.#traces(key);
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    assertSafeSeeds(request.state, request.events);
    const { appName, userId } = request;
    const id = request.sessionId?.trim() || this.#ids.uuid();
    const owned = this.#sessions.get(scopeKey(appName, userId)) ?? new Map<string, StoredSession>();
    if (owned.has(id)) throw new BatonError("session_exists", `Session ${id} already exists`);
    // The caller's initial state is copied once, then frozen like every stored value.
    const split = splitStateDelta(deepFreeze(structuredClone(request.state ?? {})));
    const stored = newStoredSession(id, ++this.#created, split.session, this.#clock.now() / 1000);
    // Seeds are checked before anything is written, so a refused seed leaves no trace.
    const seeds = (request.events ?? []).filter((event) => !event.partial);
    const seen = new Set<string>();
    for (const event of seeds) {
      if (seen.has(event.id)) throw new BatonError("invalid_request", `Event ${event.id} is already stored`);
      seen.add(event.id);
    }
    this.#applyScopes(appName, userId, split);
    owned.set(id, stored);
    this.#sessions.set(scopeKey(appName, userId), owned);
    for (const event of seeds) this.#append({ appName, userId, sessionId: id }, stored, event);
    return this.#view(appName, userId, stored, {});
  }

  async getSession(key: SessionKey, window?: EventWindow): Promise<Session | null> {
    const stored = this.#find(key);
    return stored ? this.#view(key.appName, key.userId, stored, window ?? {}) : null;
  }

  async listSessions(
    appName: string,
    userId: string,
    request: SessionPageRequest = {},
  ): Promise<SessionPage> {
    const owned = this.#sessions.get(scopeKey(appName, userId)) ?? new Map<string, StoredSession>();
    const listed = [...owned.values()].map((s) => ({ ...listedOf(s), stored: s }));
    const { page, nextPageToken } = sessionPageOf(listed, request);
    const sessions = page.map((s) => this.#view(appName, userId, s.stored, { numRecentEvents: 0 }));
    return nextPageToken === undefined ? { sessions } : { sessions, nextPageToken };
  }

  async listEvents(key: SessionKey, request: EventPageRequest = {}): Promise<EventPage> {
    return eventPageOf(this.#require(key).events, request);
  }

  async deleteSession(key: SessionKey): Promise<void> {
    this.#sessions.get(scopeKey(key.appName, key.userId))?.delete(key.sessionId);
    this.#tasks.forget(key);
  }

  async appendEvent(key: SessionKey, event: Event, options?: { lease?: string }): Promise<Event> {
    if (event.partial) return event;
    const stored = this.#require(key);
    if (stored.signals.canceled(options?.lease)) throw canceledTurn(key);
    const now = this.#clock.now();
    const verdict = judgeLease(stored.lease, options?.lease, now);
    if (verdict !== "ok") throw leaseError(verdict, key.sessionId);
    if (stored.lease && options?.lease !== undefined) stored.lease.expiresAt = now + this.#leaseTtlMs;
    if (this.#tasks.canceledBy(key, event.invocationId) !== undefined) {
      const { invocationId, author } = event;
      this.#stop(key, stored, options?.lease, { invocationId, author }, CANCEL_MESSAGES.taskCanceled);
      throw canceledTurn(key);
    }
    const appended = this.#append(key, stored, event);
    stored.feeds.publish(appended);
    return appended;
  }

  /** Admits the turn by `options.doubleTexting`, as a session object does (`TurnWrites.beginTurn`). */
  async beginTurn(
    key: SessionKey,
    userEvent: Event,
    window?: EventWindow,
    _scopes?: unknown,
    options: BeginTurnOptions = {},
  ): Promise<TurnStart> {
    assertSafeState(userEvent.actions.stateDelta, "stateDelta");
    const { signals } = this.#require(key);
    const policy = options.doubleTexting ?? "reject";
    if (policy === "interrupt") await this.cancelTurn(key, CANCEL_MESSAGES.interrupted);
    if (policy === "reject" || policy === "interrupt") {
      if (signals.waiting > 0) throw leaseError("busy", key.sessionId);
      return this.#begin(key, userEvent, window, options);
    }
    if (policy === "latest") signals.line.replaceAll();
    const debounceMs = options.debounceMs ?? 0;
    if (signals.waiting === 0 && debounceMs <= 0 && this.#busyUntil(key) === null)
      return this.#begin(key, userEvent, window, options);
    const now = () => this.#clock.now();
    const rules = { mode: policy, debounceMs, busyUntil: () => this.#busyUntil(key), now };
    const waited = await signals.line.wait(userEvent, now(), rules, (joined) => ({
      value: this.#begin(key, mergedUserEvent(userEvent, joined), window, options),
      began: true,
    }));
    if (waited.kind === "taken") return waited.value;
    if (waited.kind === "replaced") throw replacedError(key.sessionId);
    const session = this.#view(key.appName, key.userId, this.#require(key), window ?? {});
    return { session, lease: "", resumed: false, joined: waited.invocationId };
  }

  #begin(key: SessionKey, userEvent: Event, window: EventWindow | undefined, options: BeginTurnOptions) {
    const stored = this.#require(key);
    const now = this.#clock.now();
    const verdict = judgeLease(stored.lease, undefined, now);
    if (verdict !== "ok") throw leaseError(verdict, key.sessionId);
    const resumed = stored.eventIds.has(userEvent.id);
    if (!resumed) this.#append(key, stored, userEvent);
    const lease: Lease = { token: this.#ids.uuid(), expiresAt: now + this.#leaseTtlMs };
    stored.lease = lease;
    const { invocationId } = userEvent;
    stored.signals.began({ lease: lease.token, invocationId, agent: options.agent });
    return {
      session: this.#view(key.appName, key.userId, stored, window ?? {}),
      lease: lease.token,
      resumed,
      leaseTtlMs: this.#leaseTtlMs,
    };
  }

  async renewLease(key: SessionKey, lease: string): Promise<void> {
    const stored = this.#require(key);
    if (stored.signals.canceled(lease)) throw canceledTurn(key);
    const now = this.#clock.now();
    const verdict = judgeLease(stored.lease, lease, now);
    if (verdict !== "ok" || !stored.lease) throw leaseError("lost", key.sessionId);
    stored.lease.expiresAt = now + this.#leaseTtlMs;
  }

  async endTurn(key: SessionKey, lease: string, trace?: TurnTrace): Promise<void> {
    const stored = this.#find(key);
    const running = stored?.signals.running;
    // The store's own check: a turn that ends leaves no call without its response (decision 047).
    if (stored && running?.lease === lease) this.#answerOpenCalls(key, stored, running.invocationId);
    if (stored?.lease?.token === lease) stored.lease = null;
    if (running?.lease === lease) stored?.feeds.end(running.invocationId);
    stored?.signals.ended(lease);
    if (stored && trace && this.listTraces) {
      // Kept as given: the runner is done with it. Reads hand out copies, so nothing reaches the stored one.
      stored.traces.push(trace);
      stored.traces.splice(0, Math.max(0, stored.traces.length - TRACE_LIMITS.turnsPerSession));
    }
  }

  /** Stops the running turn, as a session object does (`TurnWrites.cancel`). */
  async cancelTurn(key: SessionKey, message: string = CANCEL_MESSAGES.canceled): Promise<Event | null> {
    const stored = this.#require(key);
    const lease = stored.lease;
    if (lease === null || judgeLease(lease, undefined, this.#clock.now()) === "ok") return null;
    const { running } = stored.signals;
    const invocationId = running?.invocationId ?? stored.events.at(-1)?.invocationId ?? this.#ids.uuid();
    const spoke = stored.events.findLast((e) => e.invocationId === invocationId && e.author !== "user");
    const author = spoke?.author ?? running?.agent ?? "user";
    return this.#stop(key, stored, lease.token, { invocationId, author }, message);
  }

  /** Stores the `TURN_CANCELED` event, frees the session from `lease` (when given) and tells the turn. */
  #stop(
    key: SessionKey,
    stored: StoredSession,
    lease: string | undefined,
    fields: { invocationId: string; author: string },
    message: string,
  ): Event {
    this.#answerOpenCalls(key, stored, fields.invocationId);
    const env = { ids: this.#ids, clock: this.#clock };
    const marker = this.#append(
      key,
      stored,
      createEvent({ ...fields, errorCode: "TURN_CANCELED", errorMessage: message }, env),
    );
    if (lease === undefined) return marker;
    if (stored.lease?.token === lease) stored.lease = null;
    stored.feeds.publish(marker);
    stored.feeds.end(marker.invocationId);
    stored.signals.cancel(lease, marker);
    return marker;
  }

  async watchTurn(key: SessionKey, lease: string): Promise<Event | null> {
    return this.#find(key)?.signals.watch(lease) ?? null;
  }

  async followInvocation(key: SessionKey, invocationId: string, after?: string) {
    const stored = this.#require(key);
    const live = stored.signals.running?.invocationId === invocationId;
    const backlog = missedEvents(stored.events, invocationId, after);
    if (!live && !stored.events.some((e) => e.invocationId === invocationId)) return null;
    const stream = stored.feeds.follow(invocationId, this.#ids.uuid(), backlog, live);
    return jsonLines(stream, (value) => EventSchema.parse(value));
  }

  #traces(key: SessionKey): TurnTrace[] {
    // Copied and measured at read time (the dev UI's), off the turn's path: the size a serialising store reports.
    return (this.#find(key)?.traces ?? []).map((trace) => {
      const json = JSON.stringify(trace);
      return withStoredSize(TurnTraceSchema.parse(JSON.parse(json)), encoder.encode(json).byteLength);
    });
  }

  async findSessionOwners(appName: string, sessionId: string): Promise<string[]> {
    const owners: string[] = [];
    for (const [scope, owned] of this.#sessions) {
      const { appName: app, userId } = scopeOf(scope);
      if (app === appName && owned.has(sessionId)) owners.push(userId);
    }
    return owners;
  }

  async openTask(key: TaskKey, invocationId: string, write: TaskWrite) {
    return this.#find(key)
      ? this.#tasks.open(key, invocationId, write)
      : { ok: false as const, reason: "missing" as const };
  }

  async getTask(key: TaskKey) {
    return this.#tasks.get(key) ?? null;
  }

  /** A cancel of the running turn's task stops that turn at once, as a session object does. */
  async writeTask(key: TaskKey, write: TaskWrite, options: TaskWriteOptions = {}) {
    const written = this.#tasks.write(key, write, options);
    const running = this.#find(key)?.signals.running;
    if (written.ok && options.cancel && running?.invocationId === written.record.invocationId)
      await this.cancelTurn(key, CANCEL_MESSAGES.taskCanceled);
    return written;
  }

  async publishTask(key: TaskKey, update: TaskPayload): Promise<void> {
    this.#tasks.publish(key, update);
  }

  async followTask(key: TaskKey) {
    return this.#tasks.follow(key);
  }

  async activeTask(key: SessionKey) {
    return this.#tasks.active(key);
  }

  async listTasks(query: TaskListQuery) {
    return this.#tasks.list(query);
  }

  async savePushConfig(key: TaskKey, config: PushConfig): Promise<PushConfigSaved> {
    return this.#tasks.savePushConfig(key, config);
  }

  async pushConfigs(key: TaskKey): Promise<PushConfig[] | null> {
    return this.#tasks.pushConfigs(key);
  }

  async deletePushConfig(key: TaskKey, configId: string): Promise<boolean> {
    return this.#tasks.deletePushConfig(key, configId);
  }

  /**
   * Stores a non-partial event and applies its delta to the three scopes; returns the stored event. It is
   * frozen in place (the caller's nested objects included) and shared, not copied.
   */
  #append(key: SessionKey, stored: StoredSession, event: Event): Event {
    if (stored.eventIds.has(event.id))
      throw new BatonError("invalid_request", `Event ${event.id} is already stored`);
    const persisted = frozenWithMemo(sharingEmptyMaps(persistedEvent(event)));
    const split = splitStateDelta(persisted.actions.stateDelta);
    // Views merge the state into a map of their own, so this one can be written in place.
    Object.assign(stored.state, split.session);
    this.#applyScopes(key.appName, key.userId, split);
    stored.events.push(persisted);
    stored.eventIds.add(persisted.id);
    stored.lastUpdateTime = persisted.timestamp;
    return persisted;
  }

  /** Answers the calls `invocationId` left open, each with an error (`core/open-calls.ts`). */
  #answerOpenCalls(key: SessionKey, stored: StoredSession, invocationId: string): void {
    const open = openCalls(newestFirst(stored.events), invocationId);
    if (open.length === 0) return;
    const env = { ids: this.#ids, clock: this.#clock };
    for (const answer of answersTo(open, invocationId, unansweredMessage, env)) {
      stored.feeds.publish(this.#append(key, stored, answer));
    }
  }

  /** A new map for a scope a write changes (readers hold the old one); most writes change none. */
  #applyScopes(appName: string, userId: string, split: { app: StateMap; user: StateMap }): void {
    if (hasKeys(split.app)) this.#apps.set(appName, { ...this.#apps.get(appName), ...split.app });
    if (!hasKeys(split.user)) return;
    const user = scopeKey(appName, userId);
    this.#users.set(user, { ...this.#users.get(user), ...split.user });
  }

  /** When the live lease lapses, or `null` when the session is free (or missing). */
  #busyUntil(key: SessionKey): number | null {
    const lease = this.#find(key)?.lease ?? null;
    return lease !== null && judgeLease(lease, undefined, this.#clock.now()) === "busy"
      ? lease.expiresAt
      : null;
  }

  #find(key: SessionKey): StoredSession | undefined {
    return this.#sessions.get(scopeKey(key.appName, key.userId))?.get(key.sessionId);
  }

  #require(key: SessionKey): StoredSession {
    const stored = this.#find(key);
    if (!stored) throw new BatonError("session_not_found", "Session not found");
    return stored;
  }

  #view(appName: string, userId: string, stored: StoredSession, window: EventWindow): Session {
    const app = this.#apps.get(appName) ?? {};
    const user = this.#users.get(scopeKey(appName, userId)) ?? {};
    // A fresh array and map around the shared, frozen events and values.
    return {
      id: stored.id,
      appName,
      userId,
      state: mergeScopedState(stored.state, app, user),
      events: selectWindow(stored.events, window),
      lastUpdateTime: stored.lastUpdateTime,
    };
  }
}
