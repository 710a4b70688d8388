import type { Event } from "./event.js";
import type { ReminderStore } from "./reminder.js";
import type { Session, SessionKey } from "./session.js";
import type { EventPage, EventPageRequest, SessionPage, SessionPageRequest } from "./session-pages.js";
import type { SharedScope, StateMap } from "./state.js";
import type { TurnTrace } from "./trace.js";

/** Which events a read returns (ADK `GetSessionConfig`). */
export interface EventWindow {
  /** 0 gives no events, n > 0 the last n. */
  numRecentEvents?: number;
  /** Events whose timestamp (float seconds) is at or after this. */
  afterTimestamp?: number;
}

export interface CreateSessionRequest {
  appName: string;
  userId: string;
  /** Trimmed; blank or missing gets a UUID. An existing id is `session_exists`. */
  sessionId?: string;
  /** Split by prefix exactly like a delta (ADK-SEMANTICS §4.2). */
  state?: StateMap;
  /**
   * Seed events, stored in order as if appended after the state (partials skipped, deltas applied, `temp:`
   * keys dropped). The session and its events are created together or not at all: a repeated event id is
   * `invalid_request` and leaves no session behind.
   */
  events?: readonly Event[];
}

/**
 * What a new turn does while another runs on the session (`defineApp({ doubleTexting })`, decisions 028
 * and 047): `reject` refuses it `session_busy` (409); `enqueue` waits in line and runs once the turns
 * before it ended, in arrival order; `interrupt` cancels the running turn (it ends with a stored
 * `TURN_CANCELED` event) and runs now; `latest` waits like `enqueue`, but a newer message replaces every
 * message still waiting (their requests are refused `message_replaced`, their user events never stored);
 * `merge` waits like `enqueue`, and the messages that waited together become one user event (their parts
 * in arrival order) for one turn, which every one of their requests follows.
 */
export type DoubleTexting = "reject" | "enqueue" | "interrupt" | "latest" | "merge";

/** The modes in which a message waits for the session. */
export type WaitingMode = "enqueue" | "latest" | "merge";

/**
 * `defineApp`'s `doubleTexting`: a mode, or a waiting mode with a debounce window: a message then waits
 * until no other came for `debounceMs` (and the session is free) before its turn begins, so a burst of
 * messages is merged (`merge`), cut to its newest (`latest`) or run in order once it ended (`enqueue`).
 */
export type DoubleTextingConfig = DoubleTexting | { mode: WaitingMode; debounceMs: number };

/** The mode and debounce window of a `DoubleTextingConfig` (default `reject`, no window). */
export function doubleTextingOf(config: DoubleTextingConfig | undefined): {
  mode: DoubleTexting;
  debounceMs: number;
} {
  if (config === undefined) return { mode: "reject", debounceMs: 0 };
  return typeof config === "string" ? { mode: config, debounceMs: 0 } : config;
}

/** How `beginTurn` admits the turn, beyond its user event and window. */
export interface BeginTurnOptions {
  /** Default `reject`. */
  doubleTexting?: DoubleTexting | undefined;
  /** A waiting mode's debounce window in ms (`DoubleTextingConfig`); default 0. */
  debounceMs?: number | undefined;
  /** The app's root agent: the author of the turn's cancel event when none of its agents spoke yet. */
  agent?: string | undefined;
}

/** The message of the event that records a turn stopped by `cancelTurn` (or an `interrupt`). */
export const CANCEL_MESSAGES = {
  canceled: "The turn was canceled by the client.",
  interrupted: "The turn was interrupted by a newer message.",
  /** Recorded in place of a refused append when a canceled A2A task's turn tries to go on. */
  taskCanceled: "The turn was canceled by the client (A2A tasks/cancel).",
} as const;

/** What `beginTurn` hands the runner: the session as of the user event, and the lease to append with. */
export interface TurnStart {
  session: Session;
  lease: string;
  /** `true` when the user event was already stored (a resumed turn): nothing was appended this time. */
  resumed: boolean;
  /** The lease's length in ms; a store that gives it (and `renewLease`) gets a heartbeat from the runner. */
  leaseTtlMs?: number;
  /**
   * Set when the message was merged into another waiting message's turn (`merge`): no turn began for it,
   * `lease` is empty, and this is the invocation whose events answer it (the runner follows it).
   */
  joined?: string;
}

/**
 * The port the runner talks to. `InMemorySessionStore` (tests, Node) and the Durable Object store
 * (Workers) implement it, and one contract suite runs against both.
 *
 * Append follows ADK-SEMANTICS §4.3: a partial event is returned unchanged and nothing is stored;
 * `temp:` keys are removed from the stored delta; `app:`/`user:` keys go to their shared scopes.
 */
export interface SessionStore {
  /** Reminders kept and fired with each session; a store without them (in memory) leaves this out. */
  readonly reminders?: ReminderStore;
  createSession(request: CreateSessionRequest): Promise<Session>;
  /** `null` when the session does not exist. */
  getSession(key: SessionKey, window?: EventWindow): Promise<Session | null>;
  /**
   * One page of a user's sessions, without events, with merged state, in the order `page.order` names (by
   * `lastUpdateTime`, newest first by default). Walking the pages by their tokens lists every session that
   * existed throughout the walk exactly once, however many are added meanwhile (decision 046).
   */
  listSessions(appName: string, userId: string, page?: SessionPageRequest): Promise<SessionPage>;
  /**
   * One page of a session's events in append order, oldest first: how a client reads a log longer than one
   * `getSession` returns. `session_not_found` when it does not exist. Optional.
   */
  listEvents?(key: SessionKey, page?: EventPageRequest): Promise<EventPage>;
  /** A missing session is a no-op. */
  deleteSession(key: SessionKey): Promise<void>;
  /**
   * Appends one event. While a turn holds the session's lease, only an append that presents that lease
   * is accepted (`session_busy` otherwise), and it renews the lease. A lease that has expired or been
   * released is `lease_lost`. `session_not_found` when the session does not exist.
   */
  appendEvent(key: SessionKey, event: Event, options?: { lease?: string }): Promise<Event>;
  /**
   * Starts a turn: appends the user event and takes the session's lease in one step, so a second turn
   * while one runs gets `session_busy`. The lease lapses by itself after a while with no append.
   * The returned session holds the events selected by `window` (all by default), user event included.
   * Idempotent for the user event: when an event with its id is already stored (a retried delivery
   * resuming its turn), nothing is appended and no state is applied again; the lease is taken all the same.
   * `scopes` names the shared scopes the turn's agents may read (default both): a store that keeps a
   * scope elsewhere may leave out the keys of a scope not named and not written by the user event.
   */
  beginTurn(
    key: SessionKey,
    userEvent: Event,
    window?: EventWindow,
    scopes?: readonly SharedScope[],
    options?: BeginTurnOptions,
  ): Promise<TurnStart>;
  /**
   * Releases the lease if it is still the current one. Never throws for a lapsed lease. `trace`, the turn's
   * spans, is stored with the session in the same write; a session keeps its last
   * `TRACE_LIMITS.turnsPerSession` traces. The store owns `trace` from then on (the caller no longer
   * changes it); `listTraces` returns copies that carry `baton.storage.trace_bytes` (`withStoredSize`).
   */
  endTurn(key: SessionKey, lease: string, trace?: TurnTrace): Promise<void>;
  /**
   * The stored traces of the session's recent turns, oldest first; `[]` for a missing session. Optional:
   * a store without it keeps no traces, and the dev UI's trace views show none.
   */
  listTraces?(key: SessionKey): Promise<TurnTrace[]>;
  /**
   * The users of `appName` that have a session with this id (the dev UI names sessions without a user).
   * Optional like `listTraces`.
   */
  findSessionOwners?(appName: string, sessionId: string): Promise<string[]>;
  /**
   * Extends a live `lease` by its full length (the runner's heartbeat while a slow step runs);
   * `lease_lost` when it lapsed or another turn holds the session. Optional: a store without it gets
   * no heartbeat, and its leases last one TTL past the last append.
   */
  renewLease?(key: SessionKey, lease: string): Promise<void>;
  /**
   * Stops the session's running turn at once: stores a `TURN_CANCELED` error event (authored by the turn's
   * last agent, `message` as its text) and frees the session, so a new turn may begin right away. The
   * stopped turn hears of it through `watchTurn`, and its later appends are refused `turn_canceled`.
   * Answers the stored event, or `null` when no turn runs. Optional, like `renewLease`.
   */
  cancelTurn?(key: SessionKey, message?: string): Promise<Event | null>;
  /**
   * Resolves with the cancel event once the turn of `lease` is canceled, or `null` once it ends otherwise.
   * The runner aborts the turn's `AbortSignal` on a cancel. Given with `cancelTurn`.
   */
  watchTurn?(key: SessionKey, lease: string): Promise<Event | null>;
  /**
   * An invocation's events again, for a client whose stream dropped: the stored events its stream showed
   * (not the user's) after the one with id `after` (all when `after` is not among them), then, while its
   * turn runs, each event the turn stores until it ends. `null` for an invocation with no stored event
   * that is not running. Optional.
   */
  followInvocation?(
    key: SessionKey,
    invocationId: string,
    after?: string,
  ): Promise<AsyncGenerator<Event> | null>;
}
