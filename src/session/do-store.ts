import { type Event, EventSchema } from "../core/event.js";
import type { IdSource } from "../core/ids.js";
import { frozenWithMemo } from "../core/memo.js";
import type { ReminderStore } from "../core/reminder.js";
import { assertSafeSeeds, assertSafeState } from "../core/safe-shape.js";
import type { Session, SessionKey } from "../core/session.js";
import {
  EVENT_PAGE_LIMITS,
  type EventPage,
  type EventPageRequest,
  pageSizeOf,
  type SessionPage,
  type SessionPageRequest,
} from "../core/session-pages.js";
import type {
  BeginTurnOptions,
  CreateSessionRequest,
  EventWindow,
  SessionStore,
  TurnStart,
} from "../core/session-store.js";
import {
  hasKeys,
  mergeScopedState,
  type ScopedDelta,
  SHARED_SCOPES,
  type SharedScope,
  type StateMap,
  splitStateDelta,
} from "../core/state.js";
import { keepStoredBytes } from "../core/stored-size.js";
import type { TurnTrace } from "../core/trace.js";
import type { AppObject } from "../objects/app-object.js";
import type { SessionObject } from "../objects/session-object.js";
import type { UserObject } from "../objects/user-object.js";
import { jsonLines } from "../storage/feed-lines.js";
import { appObjectName, sessionObjectName, userObjectName } from "../storage/object-names.js";
import { local, ok, type Remote, type RpcResult, remote, unwrap } from "../storage/rpc-result.js";
import { IsolateEventCache } from "./isolate-event-cache.js";
import { DEFAULT_LEASE_TTL_MS, parseLeaseTtl } from "./lease.js";
import { eventPageStart, eventPageToken } from "./page-token.js";
import { persistedEvent } from "./persisted-event.js";
import type { BeginTurnInput, TurnBegun } from "./session-records.js";
import { UserIndex } from "./user-index.js";

/** The bindings the store needs (wrangler `durable_objects.bindings`), plus the optional lease length. */
export interface SessionStoreEnv {
  SESSIONS: DurableObjectNamespace<SessionObject>;
  USERS: DurableObjectNamespace<UserObject>;
  APPS: DurableObjectNamespace<AppObject>;
  /** Lease length in ms, as a string (wrangler `vars`). */
  SESSION_LEASE_TTL_MS?: string;
}

export interface DurableObjectSessionStoreOptions {
  /** Overrides `SESSION_LEASE_TTL_MS`; defaults to 120 s. */
  leaseTtlMs?: number;
  /** Generates ids for sessions created without one. Defaults to `crypto.randomUUID`. */
  ids?: IdSource;
  /**
   * What `beginTurn` keeps of the sessions it read, to ask their objects only for newer events (decision
   * 025). Defaults to one cache per isolate, shared by every store; `null` keeps nothing.
   */
  eventCache?: IsolateEventCache | null;
  /**
   * The session object this store runs inside (decision 040): its own session is called directly, not
   * through a stub to itself. What it answers is already fresh (new arrays and maps over frozen events and
   * values), as an RPC's clone would be.
   */
  inside?: { name: string; object: SessionObject };
  /**
   * The turn host of the Worker this store runs in (`registerTurnHost`, decision 040): sent with each begin
   * so that the session's object can resume a turn run outside it (the queue consumer, A2A) in place.
   */
  turnHost?: string;
}

/** The isolate's cache of turn windows, shared by the stores each request makes. */
const isolateEventCache = new IsolateEventCache();

type ScopeDeltas = Pick<ScopedDelta, "app" | "user">;

/**
 * The `SessionStore` on Durable Objects: one `SessionObject` per session, one `UserObject` per (app, user)
 * for `user:` state and the session index, one `AppObject` per app for `app:` state. Objects are addressed
 * by the JSON of their key tuple, so no two keys can share a name.
 */
export class DurableObjectSessionStore implements SessionStore {
  readonly #env: SessionStoreEnv;
  readonly #ids: IdSource;
  readonly #leaseTtlMs: number;
  readonly #events: IsolateEventCache | null;
  readonly #options: DurableObjectSessionStoreOptions;
  readonly #inside: { name: string; session: Remote<SessionObject> } | undefined;
  readonly #index = new UserIndex({
    user: (appName, userId) => this.#user(appName, userId),
    app: (appName) => this.#app(appName),
    session: (key) => this.#session(key),
  });

  constructor(env: SessionStoreEnv, options: DurableObjectSessionStoreOptions = {}) {
    this.#env = env;
    this.#options = options;
    this.#inside = options.inside && { name: options.inside.name, session: local(options.inside.object) };
    this.#ids = options.ids ?? { uuid: () => crypto.randomUUID() };
    this.#events = options.eventCache === undefined ? isolateEventCache : options.eventCache;
    this.#leaseTtlMs = options.leaseTtlMs ?? parseLeaseTtl(env.SESSION_LEASE_TTL_MS) ?? DEFAULT_LEASE_TTL_MS;
  }

  /** Each session's reminders, kept and fired by its `SessionObject` (decision 036). */
  readonly reminders: ReminderStore = {
    set: async (key, reminder) => unwrap(await this.#session(key).setReminder(reminder)),
    list: (key) => this.#session(key).reminders(),
    cancel: (key, keyOrId) => this.#session(key).cancelReminder(keyOrId),
  };

  async createSession(request: CreateSessionRequest): Promise<Session> {
    // Everything is checked before the first write: the session, its seeds and the shared scopes live in
    // different objects, so a refusal after the session object committed would leave a half-made session.
    assertSafeSeeds(request.state, request.events);
    const { appName, userId } = request;
    const key = { appName, userId, sessionId: request.sessionId?.trim() || this.#ids.uuid() };
    const split = splitStateDelta(request.state ?? {});
    const seeds = request.events ?? [];
    // The index row comes first (decision 046): a session never exists without one.
    const user = this.#user(appName, userId);
    const row = await user.registerSession(key.sessionId, Date.now() / 1000);
    const made = await this.#session(key).create(key, split.session, seeds);
    if (!made.ok && row.created) {
      const dropped = {
        sessionId: key.sessionId,
        mark: row.mark,
        indexedMark: 0,
        entry: null,
        settled: true,
      };
      await user.repairSessions([dropped]);
    }
    const created = unwrap(made);
    // The seeds' `app:`/`user:` deltas, in order after the initial state's.
    for (const event of seeds.filter((e) => !e.partial)) {
      const delta = splitStateDelta(persistedEvent(event).actions.stateDelta);
      Object.assign(split.user, delta.user);
      Object.assign(split.app, delta.app);
    }
    const entry = { lastUpdateTime: created.lastUpdateTime, stateJson: JSON.stringify(created.state) };
    const [userState, app] = await Promise.all([
      user.indexSession(key.sessionId, entry, row.mark, split.user),
      this.#app(key.appName).registerSession(key.sessionId, key.userId, split.app),
    ]);
    return { ...created, state: mergeScopedState(created.state, app, userState) };
  }

  async getSession(key: SessionKey, window: EventWindow = {}): Promise<Session | null> {
    const [session, user, app] = await Promise.all([
      this.#session(key).get(window).then(unwrap),
      this.#user(key.appName, key.userId).merge({}),
      this.#app(key.appName).merge({}),
    ]);
    return session && { ...session, state: mergeScopedState(session.state, app, user) };
  }

  /**
   * A page of the user's index (decision 046): one read of the user's object and one of the app's, plus
   * the sessions of the few rows that may be stale, never a read of every session.
   */
  listSessions(appName: string, userId: string, page: SessionPageRequest = {}): Promise<SessionPage> {
    return this.#index.page(appName, userId, page);
  }

  async listEvents(key: SessionKey, request: EventPageRequest = {}): Promise<EventPage> {
    const size = pageSizeOf(
      request.pageSize,
      EVENT_PAGE_LIMITS.defaultPageSize,
      EVENT_PAGE_LIMITS.maxPageSize,
    );
    const after = eventPageStart(request.pageToken);
    const page = unwrap(await this.#session(key).eventPage(after, size, EVENT_PAGE_LIMITS.maxPageBytes));
    return page.more
      ? { events: page.events, nextPageToken: eventPageToken(page.last) }
      : { events: page.events };
  }

  /** Unlisted first: a session the listing shows always exists (a failed destroy leaves it unlisted). */
  async deleteSession(key: SessionKey): Promise<void> {
    this.#events?.forget(sessionObjectName(key));
    await this.#user(key.appName, key.userId).forgetSession(key.sessionId);
    await Promise.all([
      this.#session(key).destroy(),
      this.#app(key.appName).forgetSession(key.sessionId, key.userId),
    ]);
  }

  /** An append outside a turn (no lease) is a change of its own: marked before, indexed after. */
  async appendEvent(key: SessionKey, event: Event, options?: { lease?: string }): Promise<Event> {
    if (event.partial) return event;
    const stored = persistedEvent(event);
    const input = { event: stored, lease: options?.lease, leaseTtlMs: this.#leaseTtlMs };
    const mark = options?.lease === undefined ? await this.#index.mark(key) : undefined;
    const bytes: unknown = unwrap(await this.#session(key).append(input));
    if (mark !== undefined) await this.#index.written(key, mark);
    // Immutable once stored (decision 021); the row's size as the object counted it, for the turn's trace.
    // An object of the previous version (mid-deploy) answers nothing: the event is measured here then.
    frozenWithMemo(stored);
    if (typeof bytes === "number") keepStoredBytes(stored, bytes);
    // Shared scopes are written once the session accepted the event (and its lease checked out).
    // Only the scopes the event writes are called: an event without `app:` keys never reaches the AppObject.
    const split = splitStateDelta(stored.actions.stateDelta);
    if (!isEmpty(split)) await this.#mergeScopes(key, split, []);
    return stored;
  }

  /** Reads only the shared scopes in `scopes` or written by the user event; the others' keys are left out. */
  async beginTurn(
    key: SessionKey,
    userEvent: Event,
    window: EventWindow = {},
    scopes: readonly SharedScope[] = SHARED_SCOPES,
    options: BeginTurnOptions = {},
  ): Promise<TurnStart> {
    assertSafeState(userEvent.actions.stateDelta, "stateDelta");
    const stored = persistedEvent(userEvent);
    const split = splitStateDelta(stored.actions.stateDelta);
    const admission = {
      doubleTexting: options.doubleTexting,
      debounceMs: options.debounceMs,
      agent: options.agent,
      // A turn this store begins from inside its own session's object runs there (decision 040).
      ...(this.#inside?.name === sessionObjectName(key) ? { here: true } : {}),
      ...(this.#options.turnHost === undefined ? {} : { host: this.#options.turnHost }),
    };
    // Announced to the index before the session changes; the turn's end writes its row (decision 046).
    const mark = await this.#index.mark(key);
    const turn = this.#beginTurn(key, { event: stored, window, leaseTtlMs: this.#leaseTtlMs, ...admission });
    // With nothing to write to the shared scopes, read them alongside; otherwise write only once admitted,
    // and only if the user event was new (a resumed turn applied its delta the first time).
    const shared = isEmpty(split)
      ? this.#mergeScopes(key, split, scopes)
      : turn.then((result) =>
          result.ok ? this.#mergeScopes(key, result.value.resumed ? NO_DELTA : split, scopes) : undefined,
        );
    const [started, states] = await Promise.all([turn.then(unwrap), shared]);
    const state = states
      ? mergeScopedState(started.session.state, states.app, states.user)
      : started.session.state;
    const { lease, resumed, joined } = started;
    const session = { ...started.session, state };
    // A message merged into another's turn leaves its row to be read live until a later write (decision 046).
    if (joined !== undefined) return { session, lease, resumed, joined };
    this.#index.turnBegan(lease, mark);
    return { session, lease, resumed, leaseTtlMs: this.#leaseTtlMs };
  }

  /**
   * The object's `beginTurn`. A caller waiting in the session's line (`enqueue`) whose call broke (the
   * object restarted under it) asks once more: the line is stored, so it takes its place back, and the
   * turn is idempotent by its user event's id (decision 028). Refusals are answers, never thrown.
   */
  async #beginTurn(key: SessionKey, input: BeginTurnInput): Promise<RpcResult<TurnBegun>> {
    try {
      return await this.#beginTurnOnce(key, input);
    } catch (error) {
      const waits = input.doubleTexting;
      if (waits !== "enqueue" && waits !== "latest" && waits !== "merge") throw error;
      return this.#beginTurnOnce(key, input);
    }
  }

  /**
   * The object's `beginTurn`, telling it what this isolate holds of the session so that it sends only the
   * newer events; the answer is assembled into the whole window here.
   */
  async #beginTurnOnce(key: SessionKey, input: BeginTurnInput): Promise<RpcResult<TurnBegun>> {
    const cache = this.#events;
    if (!cache || input.window.afterTimestamp !== undefined) return this.#session(key).beginTurn(input);
    const name = sessionObjectName(key);
    const { held, window } = cache.held(name);
    const result = await this.#session(key).beginTurn({ ...input, held });
    if (!result.ok || !result.value.rows) return result;
    const { session, rows } = result.value;
    // `window` is the entry `held` described and is never changed in place, so the answer fits it.
    return ok({
      ...result.value,
      session: { ...session, events: cache.assemble(name, window, rows, session.events) },
    });
  }

  async renewLease(key: SessionKey, lease: string): Promise<void> {
    unwrap(await this.#session(key).renewLease({ lease, leaseTtlMs: this.#leaseTtlMs }));
  }

  async cancelTurn(key: SessionKey, message?: string): Promise<Event | null> {
    return unwrap(await this.#session(key).cancelTurn(message));
  }

  async watchTurn(key: SessionKey, lease: string): Promise<Event | null> {
    return this.#session(key).watchTurn(lease);
  }

  async followInvocation(
    key: SessionKey,
    invocationId: string,
    after?: string,
  ): Promise<AsyncGenerator<Event> | null> {
    const session = this.#session(key);
    const followerId = crypto.randomUUID();
    const stream = await session.followInvocation(invocationId, after, followerId);
    const parse = (value: unknown) => EventSchema.parse(value);
    return stream && jsonLines(stream, parse, () => session.unfollowInvocation(followerId));
  }

  async endTurn(key: SessionKey, lease: string, trace?: TurnTrace): Promise<void> {
    // As JSON: the object stores it as that, and a string costs less to send than the object's clone.
    const row = trace && { invocationId: trace.invocationId, json: JSON.stringify(trace) };
    await this.#session(key).endTurn(lease, row);
    await this.#index.written(key, this.#index.turnEnded(lease));
  }

  async listTraces(key: SessionKey): Promise<TurnTrace[]> {
    return this.#session(key).traces();
  }

  async findSessionOwners(appName: string, sessionId: string): Promise<string[]> {
    return this.#app(appName).ownersOf(sessionId);
  }

  /**
   * Writes each scope's delta and reads back the scopes in `read` or written; a scope neither read nor
   * written is not called at all (its state is left out of the result).
   */
  async #mergeScopes(
    key: SessionKey,
    split: ScopeDeltas,
    read: readonly SharedScope[],
  ): Promise<{ app: StateMap; user: StateMap }> {
    const wanted = (scope: SharedScope) => read.includes(scope) || Object.keys(split[scope]).length > 0;
    const [app, user] = await Promise.all([
      wanted("app") ? this.#app(key.appName).merge(split.app) : {},
      wanted("user") ? this.#user(key.appName, key.userId).merge(split.user) : {},
    ]);
    return { app, user };
  }

  /** This store, run inside the session object `object` (named `name`), which it then calls directly. */
  inside(name: string, object: SessionObject): DurableObjectSessionStore {
    return new DurableObjectSessionStore(this.#env, { ...this.#options, inside: { name, object } });
  }

  #session(key: SessionKey): Remote<SessionObject> {
    const name = sessionObjectName(key);
    if (this.#inside?.name === name) return this.#inside.session;
    return remote(this.#env.SESSIONS.getByName(name));
  }

  #user(appName: string, userId: string) {
    return remote(this.#env.USERS.getByName(userObjectName(appName, userId)));
  }

  #app(appName: string) {
    return remote(this.#env.APPS.getByName(appObjectName(appName)));
  }
}

const NO_DELTA: ScopeDeltas = { app: {}, user: {} };

const isEmpty = (split: ScopeDeltas): boolean => !hasKeys(split.app) && !hasKeys(split.user);
