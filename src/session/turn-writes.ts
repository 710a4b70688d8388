import { BatonError } from "../core/errors.js";
import { createEvent, type Event } from "../core/event.js";
import { TRACE_LIMITS, type TurnTrace } from "../core/trace.js";
import { windowAnswer } from "./held-rows.js";
import { judgeLease, leaseError } from "./lease.js";
import { ok, type RpcResult, refuse } from "./rpc-result.js";
import type { SessionCache } from "./session-cache.js";
import type { SessionLog } from "./session-log.js";
import {
  type AppendInput,
  type BeginTurnInput,
  notFound,
  readable,
  recordOf,
  type TraceRow,
  type TurnBegun,
} from "./session-records.js";
import { HAS_EVENT, INSERT_TRACE, RELEASE_LEASE, SELECT_TRACES, TRIM_TRACES } from "./session-sql.js";
import type { SessionTasks } from "./session-tasks.js";
import { CANCELED_TURN_MESSAGE } from "./task-rules.js";

/**
 * The writes of a turn on its session: taking the lease with the user event, appending under it, renewing
 * it, and releasing it with the turn's trace. Leases are judged by this object's clock; a turn whose A2A
 * task was canceled has its next append replaced by the cancel's record.
 */
export class TurnWrites {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly log: SessionLog,
    private readonly tasks: SessionTasks,
  ) {}

  /** See `SessionObject.append`. */
  append(input: AppendInput): RpcResult<number> {
    return readable(() => {
      const cache = this.log.load();
      if (!cache) return notFound();
      const now = Date.now();
      const verdict = judgeLease(cache.meta.lease, input.lease, now);
      if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
      const { lease } = input;
      const canceled = this.tasks.canceledBy(input.event.invocationId);
      if (canceled !== undefined) return this.#recordCancel(cache, input.event, canceled);
      const renewed = lease === undefined ? undefined : { token: lease, expiresAt: now + input.leaseTtlMs };
      return this.log.write(cache, input.event, renewed);
    });
  }

  /** See `SessionObject.beginTurn`. */
  beginTurn(input: BeginTurnInput): RpcResult<TurnBegun> {
    return readable(() => {
      const cache = this.log.load();
      if (!cache) return notFound();
      const now = Date.now();
      const verdict = judgeLease(cache.meta.lease, undefined, now);
      if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
      const lease = { token: crypto.randomUUID(), expiresAt: now + input.leaseTtlMs };
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
      const now = Date.now();
      const verdict = judgeLease(cache.meta.lease, input.lease, now);
      if (verdict !== "ok") return refuse(leaseError(verdict, cache.meta.sessionId));
      this.log.setLease(cache, { token: input.lease, expiresAt: now + input.leaseTtlMs });
      return ok(null);
    });
  }

  /** See `SessionObject.endTurn`. */
  endTurn(lease: string, trace?: TurnTrace | TraceRow): void {
    const cache = this.log.load();
    this.storage.transactionSync(() => {
      RELEASE_LEASE.run(this.log.sql, lease);
      if (trace === undefined || !cache) return;
      const json = "json" in trace ? trace.json : JSON.stringify(trace);
      INSERT_TRACE.run(this.log.sql, trace.invocationId, json);
      TRIM_TRACES.run(this.log.sql, TRACE_LIMITS.turnsPerSession);
    });
    if (cache?.meta.lease?.token === lease) cache.meta.lease = null;
  }

  /** The stored turn traces, oldest first. */
  traces(): TurnTrace[] {
    return SELECT_TRACES.all(this.log.sql);
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
    const written = this.log.write(cache, marker);
    if (!written.ok) return written;
    return refuse(new BatonError("turn_canceled", `Task ${taskId} was canceled; its turn stops here`));
  }
}
