import type { SessionTasks } from "../a2a/tasks/session-tasks.js";
import { BatonError } from "../core/errors.js";
import { createEvent, type Event } from "../core/event.js";
import { CANCEL_MESSAGES, type WaitingMode } from "../core/session-store.js";
import { TRACE_LIMITS, type TurnTrace } from "../core/trace.js";
import { windowAnswer } from "../session/held-rows.js";
import { InvocationFeeds, missedEvents } from "../session/invocation-feeds.js";
import { judgeLease, type Lease, leaseError, replacedError } from "../session/lease.js";
import type { SessionCache } from "../session/session-cache.js";
import type { SessionLog } from "../session/session-log.js";
import {
  type AppendInput,
  type BeginTurnInput,
  notFound,
  readable,
  recordOf,
  type TraceRow,
  type TurnBegun,
} from "../session/session-records.js";
import {
  HAS_EVENT,
  INSERT_TRACE,
  RELEASE_LEASE,
  SELECT_EVENT,
  SELECT_INVOCATION,
  SELECT_TRACES,
  TRIM_TRACES,
} from "../session/session-sql.js";
import { TurnSignals } from "../session/turn-signals.js";
import { type LineVerdict, mergedUserEvent } from "../session/waiting-line.js";
import { ok, type RpcResult, refuse } from "../storage/rpc-result.js";
import type { TurnMarker, TurnMarkers } from "./resume-concern.js";
import { OBJECT_EVENTS, TurnRecords } from "./turn-records.js";
import { WaitingTurns } from "./waiting-turns.js";

/** The refusal of a canceled turn's later writes. */
const canceledTurn = (sessionId: string): RpcResult<never> =>
  refuse(new BatonError("turn_canceled", `The turn on session ${sessionId} was canceled; it stops here`));

/** How often a waiting turn looks again while a dead turn waits for its resume (or an orphan for its run). */
const RECHECK_MS = 1_000;

/**
 * The writes of a turn on its session: taking the lease with the user event, appending under it, renewing
 * it, and releasing it with the turn's trace. Leases are judged by this object's clock; a turn whose A2A
 * task was canceled has its next append replaced by the cancel's record. A turn that did not end (its
 * marker) goes before every other: no begin takes the session from it (decision 047).
 */
export class TurnWrites {
  /** The running turn, canceled leases, cancel watchers and the line of waiting turns, in memory. */
  readonly signals = new TurnSignals();
  /** Reconnected streams of running invocations. */
  readonly feeds = new InvocationFeeds();
  /** The line of waiting turns as stored, so that a restart of the object does not lose it. */
  readonly waiting: WaitingTurns;
  /** What the object records of a turn itself: answers to open calls, cancels, a turn given up. */
  readonly #records: TurnRecords;

  /**
   * @param markers the running turn's marker in storage, for resuming a turn that died (`resumeConcern`)
   * @param turnsChanged sets the object's alarm again once a turn began or ended
   */
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly log: SessionLog,
    private readonly tasks: SessionTasks,
    private readonly markers: TurnMarkers,
    private readonly turnsChanged: () => Promise<void>,
    /** Hears the turn host a begin names (`BeginTurnInput.host`): the app that can resume it here. */
    private readonly hostSeen: (host: string) => void = () => undefined,
  ) {
    this.waiting = new WaitingTurns(storage.sql);
    this.#records = new TurnRecords(log, this.feeds);
  }

  /** See `SessionObject.append`. */
  append(input: AppendInput): RpcResult<number> {
    return readable(() => {
      const cache = this.log.load();
      if (!cache) return notFound();
      if (this.signals.canceled(input.lease)) return canceledTurn(cache.meta.sessionId);
      const now = Date.now();
      const verdict = judgeLease(cache.meta.lease, input.lease, now);
      if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
      const { lease } = input;
      if (this.tasks.canceledBy(input.event.invocationId) !== undefined)
        return this.#recordCancel(cache, input);
      const renewed = lease === undefined ? undefined : { token: lease, expiresAt: now + input.leaseTtlMs };
      const written = this.log.write(cache, input.event, renewed);
      if (written.ok) this.feeds.publish(input.event);
      return written;
    });
  }

  /**
   * See `SessionObject.beginTurn`. A turn that did not end (its marker) is resumed before anything else:
   * its own begin goes first, any other waits (waiting modes) or is refused `session_busy`. The waiting
   * modes (`enqueue`, `latest`, `merge`) wait in line for the session; `interrupt` cancels the running (or
   * dead) turn first; `reject` refuses while a turn runs or waits.
   */
  async beginTurn(input: BeginTurnInput): Promise<RpcResult<TurnBegun>> {
    const begun = await this.#admit(input);
    if (begun.ok && begun.value.joined === undefined) await this.turnsChanged();
    return begun;
  }

  async #admit(input: BeginTurnInput): Promise<RpcResult<TurnBegun>> {
    const policy = input.doubleTexting ?? "reject";
    if (this.markers.get()?.invocationId === input.event.invocationId) return this.#begin(input);
    if (policy === "interrupt") {
      const stopped = this.cancel(CANCEL_MESSAGES.interrupted);
      if (!stopped.ok) return stopped;
    }
    if (policy === "reject" || policy === "interrupt") {
      const cache = this.log.load();
      if (policy === "reject" && cache && this.signals.waiting > 0)
        return refuse(leaseError("busy", cache.meta.sessionId));
      return this.#begin(input);
    }
    return this.#wait(input, policy);
  }

  /**
   * A waiting mode's admission: at once when nothing runs or waits (and no debounce window), else in line,
   * stored first so that a restart of the object does not lose it (`waiting-turns.ts`). A caller back after
   * a restart takes its place back; one whose message was merged or replaced meanwhile hears so.
   */
  async #wait(input: BeginTurnInput, mode: WaitingMode): Promise<RpcResult<TurnBegun>> {
    const { event } = input;
    const decided = this.waiting.outcomeOf(event.id);
    if (decided) return this.#decided(decided, input);
    const back = this.waiting.has(event.id);
    if (!back && mode === "latest") this.#replaceWaiting();
    const debounceMs = input.debounceMs ?? 0;
    const free = this.#busyUntil(event.invocationId, Number.POSITIVE_INFINITY) === null;
    if (!back && debounceMs <= 0 && this.signals.waiting === 0 && free) return this.#begin(input);
    const arrived = this.waiting.arrive(event, Date.now(), input.here === true);
    // A caller back in line may be the one the others waited for (`reentering`): they look again.
    if (back) this.signals.line.wake();
    try {
      const rules = {
        mode,
        debounceMs,
        now: Date.now,
        busyUntil: (at: number) => this.#busyUntil(event.invocationId, at),
      };
      const waited = await this.signals.line.wait(event, arrived, rules, (joined) => {
        const begun = this.#begin({ ...input, event: mergedUserEvent(event, joined) }, joined);
        return { value: begun, began: begun.ok };
      });
      return waited.kind === "taken" ? waited.value : this.#decided(waited, input);
    } finally {
      this.waiting.leave(event.id);
    }
  }

  /** `latest`: every message waiting now (held or stored) is replaced by the one that just came. */
  #replaceWaiting(): void {
    this.signals.line.replaceAll();
    this.waiting.settle(this.waiting.ids(), { kind: "replaced" });
  }

  /** The answer to a message another turn decided for: refused (`replaced`), or the turn it joined. */
  #decided(verdict: LineVerdict, input: BeginTurnInput): RpcResult<TurnBegun> {
    if (verdict.kind === "replaced") {
      const sessionId = this.log.load()?.meta.sessionId ?? "";
      return refuse(replacedError(sessionId));
    }
    const session = this.log.snapshot(input.window);
    if (!session.ok) return session;
    return ok({ session: session.value, lease: "", resumed: false, joined: verdict.invocationId });
  }

  /**
   * Takes the session for `input.event`'s turn: stores the user event (unless resumed) with a new lease and
   * marks the turn. Refused `session_busy` while a live lease or another invocation's marker holds the
   * session. `joined`: the waiting messages merged into this event (`merge`), settled in the same step.
   */
  #begin(input: BeginTurnInput, joined: readonly Event[] = []): RpcResult<TurnBegun> {
    return readable(() => {
      const cache = this.log.load();
      if (!cache) return notFound();
      const { event } = input;
      const marker = this.markers.get();
      if (marker && marker.invocationId !== event.invocationId)
        return refuse(leaseError("busy", cache.meta.sessionId));
      const now = Date.now();
      const verdict = judgeLease(this.#lease(cache), undefined, now);
      if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
      const resumed = HAS_EVENT.first(this.log.sql, event.id) !== undefined;
      // The store's own check: the turn before left no call without its response (decision 047).
      if (!resumed) this.#records.answerLastTurn(cache);
      if (input.host !== undefined) this.hostSeen(input.host);
      const lease = { token: crypto.randomUUID(), expiresAt: now + input.leaseTtlMs };
      this.signals.began({ lease: lease.token, invocationId: event.invocationId, agent: input.agent });
      this.markers.began(event.invocationId, event.id, { here: input.here === true, agent: input.agent });
      if (resumed) this.log.setLease(cache, lease);
      const written = resumed ? ok(null) : this.log.write(cache, event, lease);
      if (!written.ok) return written;
      if (joined.length > 0) {
        const ids = joined.map((e) => e.id);
        this.waiting.settle(ids, { kind: "joined", invocationId: event.invocationId });
      }
      if (input.held === undefined || input.window.afterTimestamp !== undefined) {
        const session = this.log.snapshot(input.window);
        return session.ok ? ok({ session: session.value, lease: lease.token, resumed }) : session;
      }
      const answer = windowAnswer(this.log.rows(cache, input.window), cache.meta.epoch, input.held);
      const session = { ...recordOf(cache), events: answer.events };
      return ok({ session, lease: lease.token, resumed, rows: answer.rows });
    });
  }

  /** See `SessionObject.renewLease`. */
  renewLease(input: { lease: string; leaseTtlMs: number }): RpcResult<null> {
    return readable(() => {
      const cache = this.log.load();
      if (!cache) return notFound();
      if (this.signals.canceled(input.lease)) return canceledTurn(cache.meta.sessionId);
      const now = Date.now();
      const verdict = judgeLease(cache.meta.lease, input.lease, now);
      if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
      this.log.setLease(cache, { token: input.lease, expiresAt: now + input.leaseTtlMs });
      return ok(null);
    });
  }

  /** See `SessionObject.endTurn`. The calls the turn left without a response are answered first. */
  async endTurn(lease: string, trace?: TurnTrace | TraceRow): Promise<void> {
    const cache = this.log.load();
    const current = cache?.meta.lease?.token === lease;
    const invocationId = current ? this.markers.get()?.invocationId : undefined;
    if (cache && invocationId !== undefined) this.#records.answerOpenCalls(cache, invocationId);
    if (current) this.markers.clear();
    this.storage.transactionSync(() => {
      RELEASE_LEASE.run(this.log.sql, lease);
      if (trace === undefined || !cache) return;
      const json = "json" in trace ? trace.json : JSON.stringify(trace);
      INSERT_TRACE.run(this.log.sql, trace.invocationId, json);
      TRIM_TRACES.run(this.log.sql, TRACE_LIMITS.turnsPerSession);
    });
    if (cache?.meta.lease?.token === lease) cache.meta.lease = null;
    const running = this.signals.running;
    if (running?.lease === lease) this.feeds.end(running.invocationId);
    this.signals.ended(lease);
    if (current) await this.turnsChanged();
  }

  /**
   * An invocation's stream again (`SessionStore.followInvocation`): its stored events after `after`, then,
   * while its turn runs, each event it stores until it ends. `null` when the invocation is unknown here.
   */
  followInvocation(invocationId: string, after: string | undefined, followerId: string) {
    const live = this.signals.running?.invocationId === invocationId;
    const stored = SELECT_INVOCATION.all(this.log.sql, invocationId);
    if (!live && stored.length === 0) return null;
    return this.feeds.follow(invocationId, followerId, missedEvents(stored, invocationId, after), live);
  }

  /**
   * Stops the running turn (`SessionStore.cancelTurn`): stores its `TURN_CANCELED` event and frees the
   * session in one step, then tells the turn (its `watch`). A turn that died and waits for its resume is
   * stopped the same way (it is not resumed). `ok(null)` when no turn holds the session.
   */
  cancel(message: string = CANCEL_MESSAGES.canceled): RpcResult<Event | null> {
    return readable(() => {
      const cache = this.log.load();
      if (!cache) return notFound();
      const lease = this.#lease(cache);
      const live = lease !== null && judgeLease(lease, undefined, Date.now()) === "busy";
      const marker = this.markers.get();
      if (!live && !marker) return ok(null);
      const running = live && this.signals.running?.lease === lease.token ? this.signals.running : null;
      const recent = this.log.rows(cache, { numRecentEvents: 100 }).map((row) => row.event);
      // An object that restarted mid-turn no longer knows the turn: its marker (or newest event) names it.
      const invocationId =
        running?.invocationId ?? marker?.invocationId ?? recent.at(-1)?.invocationId ?? crypto.randomUUID();
      const spoke = recent.findLast((e) => e.invocationId === invocationId && e.author !== "user");
      const author = spoke?.author ?? running?.agent ?? marker?.agent ?? "user";
      const stopped = this.#stop(cache, cache.meta.lease?.token, { invocationId, author }, message);
      if (stopped.ok && marker?.invocationId === invocationId) this.#forget(marker);
      return stopped;
    });
  }

  /** Cancels the running turn if it is `invocationId`'s (an A2A task's cancel); `null` otherwise. */
  cancelInvocation(invocationId: string, message: string): RpcResult<Event | null> {
    if (this.signals.running?.invocationId !== invocationId) return ok(null);
    return this.cancel(message);
  }

  /**
   * Gives a dead turn up (`resumeConcern`): what it left open is answered, an error event records why (so
   * its message is answered), and the session is free.
   */
  abandon(marker: TurnMarker, why: string): void {
    const cache = this.log.load();
    if (cache) this.#records.abandoned(cache, marker, why);
    this.#forget(marker);
  }

  /** Frees the session from the lease a turn that died with an earlier lifetime of this object held. */
  releaseDead(): void {
    const cache = this.log.load();
    const lease = cache?.meta.lease;
    if (!cache || !lease || !this.markers.diedHere()) return;
    RELEASE_LEASE.run(this.log.sql, lease.token);
    cache.meta.lease = null;
  }

  /** Forgets what is kept of the marker and the stored line; the next use reads them again. */
  dropCache(): void {
    this.markers.drop();
    this.waiting.drop();
  }

  /** A stored event by id, read from the log (the user event of a turn to resume). */
  storedEvent(id: string): Event | undefined {
    const at = HAS_EVENT.first(this.log.sql, id);
    if (!at) return undefined;
    return SELECT_EVENT.first(this.log.sql, at.seq);
  }

  /** The session's lease while its turn may be alive: not the lease of a turn that died with this object. */
  #lease(cache: SessionCache): Lease | null {
    return this.markers.diedHere() ? null : cache.meta.lease;
  }

  /**
   * When a waiting turn that arrived at `arrived` may look again, or `null` when it may take the session:
   * not while a live lease holds it (until it lapses), another invocation's turn did not end (it resumes
   * first), an orphan that came before it waits for its run, or an orphan the object runs is on its way
   * back to the line.
   */
  #busyUntil(invocationId: string, arrived: number): number | null {
    const cache = this.log.load();
    if (!cache) return null;
    const now = Date.now();
    const lease = this.#lease(cache);
    if (lease !== null && judgeLease(lease, undefined, now) === "busy") return lease.expiresAt;
    const marker = this.markers.get();
    if (marker && marker.invocationId !== invocationId) return now + RECHECK_MS;
    return this.waiting.unheldBefore(arrived) || this.waiting.reentering() ? now + RECHECK_MS : null;
  }

  /** The marked turn is over (stopped or given up): its marker and lease go, the line looks again. */
  #forget(marker: TurnMarker): void {
    const cache = this.log.load();
    const lease = cache?.meta.lease;
    if (cache && lease) {
      RELEASE_LEASE.run(this.log.sql, lease.token);
      cache.meta.lease = null;
    }
    if (this.markers.get()?.invocationId === marker.invocationId) this.markers.clear();
    this.signals.line.wake();
  }

  /** The stored turn traces, oldest first. */
  traces(): TurnTrace[] {
    return SELECT_TRACES.all(this.log.sql);
  }

  /**
   * A canceled task's turn at its next append (its turn ran where this object could not stop it at once):
   * the event is dropped and an error event by the same author records the cancel in its place, and the
   * append is refused with `turn_canceled`.
   */
  #recordCancel(cache: SessionCache, refused: AppendInput): RpcResult<never> {
    const { invocationId, author } = refused.event;
    const stopped = this.#stop(cache, refused.lease, { invocationId, author }, CANCEL_MESSAGES.taskCanceled);
    return stopped.ok ? canceledTurn(cache.meta.sessionId) : stopped;
  }

  /**
   * Stores the `TURN_CANCELED` event (after answering the calls the turn left open), frees the session from
   * `lease` (when it holds it) and tells the turn: its watchers hear the event, its later writes are refused.
   */
  #stop(
    cache: SessionCache,
    lease: string | undefined,
    fields: { invocationId: string; author: string },
    message: string,
  ): RpcResult<Event> {
    this.#records.answerOpenCalls(cache, fields.invocationId);
    const errorFields = { errorCode: "TURN_CANCELED", errorMessage: message };
    const marker = createEvent({ ...fields, ...errorFields }, OBJECT_EVENTS);
    const written = this.log.write(cache, marker);
    if (!written.ok) return written;
    if (lease === undefined) return ok(marker);
    RELEASE_LEASE.run(this.log.sql, lease);
    if (this.markers.get()?.invocationId === fields.invocationId) this.markers.clear();
    if (cache.meta.lease?.token === lease) cache.meta.lease = null;
    this.feeds.publish(marker);
    this.feeds.end(marker.invocationId);
    this.signals.cancel(lease, marker);
    return ok(marker);
  }
}
