import type { SessionTasks } from "../a2a/tasks/session-tasks.js";
import { BatonError } from "../core/errors.js";
import { createEvent, type Event } from "../core/event.js";
import { CANCEL_MESSAGES } from "../core/session-store.js";
import { TRACE_LIMITS, type TurnTrace } from "../core/trace.js";
import { windowAnswer } from "../session/held-rows.js";
import { InvocationFeeds, missedEvents } from "../session/invocation-feeds.js";
import { judgeLease, leaseError } from "../session/lease.js";
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
import { ok, type RpcResult, refuse } from "../storage/rpc-result.js";
import type { TurnMarkers } from "./resume-concern.js";
import { WaitingTurns } from "./waiting-turns.js";

/** How the object's own events (the cancel records) get their ids and times. */
const objectEnv = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => Date.now() } };

/** The refusal of a canceled turn's later writes. */
const canceledTurn = (sessionId: string): RpcResult<never> =>
  refuse(new BatonError("turn_canceled", `The turn on session ${sessionId} was canceled; it stops here`));

/**
 * The writes of a turn on its session: taking the lease with the user event, appending under it, renewing
 * it, and releasing it with the turn's trace. Leases are judged by this object's clock; a turn whose A2A
 * task was canceled has its next append replaced by the cancel's record.
 */
export class TurnWrites {
  /** The running turn, canceled leases, cancel watchers and the line of waiting turns, in memory. */
  readonly signals = new TurnSignals();
  /** Reconnected streams of running invocations. */
  readonly feeds = new InvocationFeeds();
  /** The line of waiting turns as stored, so that a restart of the object does not lose it. */
  readonly waiting: WaitingTurns;

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
  ) {
    this.waiting = new WaitingTurns(storage.sql);
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
   * See `SessionObject.beginTurn`. Under `enqueue` it waits in line for the session (the running turn and
   * those that came before); under `interrupt` it cancels the running turn first; `reject` refuses while a
   * turn runs or waits.
   */
  async beginTurn(input: BeginTurnInput): Promise<RpcResult<TurnBegun>> {
    const begun = await this.#admit(input);
    if (begun.ok) await this.turnsChanged();
    return begun;
  }

  async #admit(input: BeginTurnInput): Promise<RpcResult<TurnBegun>> {
    const policy = input.doubleTexting ?? "reject";
    if (policy === "enqueue") {
      const { id } = input.event;
      if (this.signals.waiting === 0 && this.#busyUntil() === null) {
        try {
          return this.#begin(input);
        } finally {
          this.waiting.leave(id);
        }
      }
      // It waits: stored first, so that a restart of the object does not lose it (`waiting-turns.ts`).
      const arrived = this.waiting.arrive(input.event, Date.now());
      const leave = await this.signals.inLine(() => this.#busyUntil(), Date.now, arrived);
      try {
        return this.#begin(input);
      } finally {
        this.waiting.leave(id);
        leave();
      }
    }
    if (policy === "interrupt") {
      const stopped = this.cancel(CANCEL_MESSAGES.interrupted);
      if (!stopped.ok) return stopped;
    }
    const cache = this.log.load();
    if (policy === "reject" && cache && this.signals.waiting > 0)
      return refuse(leaseError("busy", cache.meta.sessionId));
    return this.#begin(input);
  }

  #begin(input: BeginTurnInput): RpcResult<TurnBegun> {
    return readable(() => {
      const cache = this.log.load();
      if (!cache) return notFound();
      const now = Date.now();
      const verdict = judgeLease(cache.meta.lease, undefined, now);
      if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
      const lease = { token: crypto.randomUUID(), expiresAt: now + input.leaseTtlMs };
      this.signals.began({ lease: lease.token, invocationId: input.event.invocationId, agent: input.agent });
      this.markers.began(input.event.invocationId, input.event.id);
      const resumed = HAS_EVENT.first(this.log.sql, input.event.id) !== undefined;
      if (resumed) this.log.setLease(cache, lease);
      const written = resumed ? ok(null) : this.log.write(cache, input.event, lease);
      if (!written.ok) return written;
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

  /** See `SessionObject.endTurn`. */
  async endTurn(lease: string, trace?: TurnTrace | TraceRow): Promise<void> {
    const cache = this.log.load();
    const current = cache?.meta.lease?.token === lease;
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
   * session in one step, then tells the turn (its `watch`). `ok(null)` when no turn holds the session.
   */
  cancel(message: string = CANCEL_MESSAGES.canceled): RpcResult<Event | null> {
    return readable(() => {
      const cache = this.log.load();
      if (!cache) return notFound();
      const lease = cache.meta.lease;
      if (lease === null || judgeLease(lease, undefined, Date.now()) === "ok") return ok(null);
      const running = this.signals.running?.lease === lease.token ? this.signals.running : null;
      const recent = this.log.rows(cache, { numRecentEvents: 100 }).map((row) => row.event);
      // An object that restarted mid-turn no longer knows the turn: its newest event names the invocation.
      const invocationId = running?.invocationId ?? recent.at(-1)?.invocationId ?? crypto.randomUUID();
      const spoke = recent.findLast((e) => e.invocationId === invocationId && e.author !== "user");
      const author = spoke?.author ?? running?.agent ?? "user";
      return this.#stop(cache, lease.token, { invocationId, author }, message);
    });
  }

  /** Cancels the running turn if it is `invocationId`'s (an A2A task's cancel); `null` otherwise. */
  cancelInvocation(invocationId: string, message: string): RpcResult<Event | null> {
    if (this.signals.running?.invocationId !== invocationId) return ok(null);
    return this.cancel(message);
  }

  /** A stored event by id, read from the log (the user event of a turn to resume). */
  storedEvent(id: string): Event | undefined {
    const at = HAS_EVENT.first(this.log.sql, id);
    if (!at) return undefined;
    return SELECT_EVENT.first(this.log.sql, at.seq);
  }

  /** When the live lease lapses, or `null` when the session is free (or missing). */
  #busyUntil(): number | null {
    const lease = this.log.load()?.meta.lease ?? null;
    return lease !== null && judgeLease(lease, undefined, Date.now()) === "busy" ? lease.expiresAt : null;
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
   * Stores the `TURN_CANCELED` event, frees the session from `lease` (when it holds it) and tells the turn:
   * its watchers hear the event, its later writes are refused.
   */
  #stop(
    cache: SessionCache,
    lease: string | undefined,
    fields: { invocationId: string; author: string },
    message: string,
  ): RpcResult<Event> {
    const marker = createEvent({ ...fields, errorCode: "TURN_CANCELED", errorMessage: message }, objectEnv);
    const written = this.log.write(cache, marker);
    if (!written.ok) return written;
    if (lease === undefined) return ok(marker);
    RELEASE_LEASE.run(this.log.sql, lease);
    this.markers.clear();
    if (cache.meta.lease?.token === lease) cache.meta.lease = null;
    this.feeds.publish(marker);
    this.feeds.end(marker.invocationId);
    this.signals.cancel(lease, marker);
    return ok(marker);
  }
}
