import { DurableObject } from "cloudflare:workers";
import type { ThreadMessage } from "../core/email.js";
import { joinThread, MAIL_THREADS_SQL } from "../email/mail-threads.js";
import { migrate } from "../storage/sql.js";
import { objectQueueOf } from "../webhooks/object-queue.js";
import type { NewTurnRecord, TurnRecord, TurnStatus } from "../webhooks/turn-record.js";
import {
  claimGuard,
  deleteTurn,
  enrollInLine,
  insertTurn,
  leaveLine,
  lineHead,
  readTurn,
  releaseGuard,
  sweepExpired,
  TURN_SHARD_SQL,
  updateTurn,
} from "../webhooks/turn-shard-sql.js";
import {
  markSent,
  markUnsent,
  nextUnsentDue,
  SEND_GRACE_MS,
  sendUnsent,
  UNSENT_SQL,
} from "../webhooks/unsent-turns.js";

/** How long a delivery id (and a body's hash) is remembered: duplicates within this window get the same turn. */
export const RETAIN_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How long a `running` turn belongs to the queue message that began it: a queue consumer runs at most
 * 15 minutes, so past that the message is retried or gone, and another copy may take the turn over.
 */
export const HOLD_MS = 15 * 60 * 1000;

/**
 * One shard of the durable state of queued turns (webhooks, schedules, email, reminders), decision 038. A
 * fixed number of these hold every turn, each session's turns in the shard its key hashes to
 * (`turn-ledger.ts`), so accepting a delivery is one write to an object that already exists instead of
 * writes to new objects. A shard keeps, for its sessions:
 * - turn records by turn id: a delivery's dedupe guard and its record. All copies of a delivery meet in
 *   the same shard (a delivery's body names its session), and the object's single thread makes `accept`
 *   a check-and-set (no await between the read and the writes);
 * - replay guards by a body's hash (schemes that sign no id or time);
 * - session lines (the order one session's queued turns run in);
 * - the turns whose queue message is not known to be sent: the alarm sends those (`unsent-turns.ts`);
 * - who takes part in each mail thread (`email/mail-threads.ts`, decision 048), kept as long as sessions are.
 * Every other row is deleted `RETAIN_MS` after it was written, by the shard's alarm.
 */
export class TurnObject extends DurableObject {
  /** When the alarm that is set fires, `null` for none, `undefined` until it is read from storage. */
  #alarmAt: number | null | undefined;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    migrate(ctx.storage, [TURN_SHARD_SQL, UNSENT_SQL, MAIL_THREADS_SQL]);
  }

  /**
   * Accepts a delivery in one step (one write, one commit): its replay guard (`guard`, for schemes that sign
   * no id or time), its turn record unless this delivery was seen before, and its place in the session's
   * `line`. A delivery seen before (or a body replayed under a new id) returns the turn that stands, with
   * `created: false`; its record is `null` only when that turn was withdrawn meanwhile.
   */
  async accept(
    fresh: NewTurnRecord,
    line: string,
    guard?: string,
  ): Promise<{ created: boolean; turnId: string; record: TurnRecord | null }> {
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    const expiresAt = now + RETAIN_MS;
    const owner = guard === undefined ? fresh.turnId : claimGuard(sql, guard, fresh.turnId, expiresAt);
    const existing = readTurn(sql, owner);
    if (owner !== fresh.turnId || existing)
      return { created: false, turnId: owner, record: existing ?? null };
    const place = enrollInLine(sql, line, fresh.turnId, expiresAt);
    const record: TurnRecord = {
      ...fresh,
      status: "queued",
      attempts: 0,
      waits: 0,
      place,
      createdAt: now,
      updatedAt: now,
    };
    insertTurn(sql, record, expiresAt);
    // Until its sender confirms the send (`sent`), the turn's message may never have gone: the alarm sends it.
    markUnsent(sql, fresh.turnId, now + SEND_GRACE_MS, expiresAt);
    await this.#alarmBy(now + SEND_GRACE_MS);
    return { created: true, turnId: fresh.turnId, record };
  }

  /** The accepted turn's queue message was sent: the alarm need not send one. */
  sent(turnId: string): void {
    markSent(this.ctx.storage.sql, turnId);
  }

  /** Undoes `accept` (its message could not be enqueued), so the provider's retry is accepted afresh. */
  withdraw(turnId: string, line: string, guard?: string): void {
    const sql = this.ctx.storage.sql;
    deleteTurn(sql, turnId);
    markSent(sql, turnId);
    leaveLine(sql, line, turnId);
    if (guard !== undefined) releaseGuard(sql, guard, turnId);
  }

  get(turnId: string): TurnRecord | null {
    return readTurn(this.ctx.storage.sql, turnId) ?? null;
  }

  /**
   * The attempt of queue message `messageId` starts: a queued turn, or one its own message's interrupted
   * attempt left `running`, becomes `running`, held by that message. Ended turns, and a turn another
   * message's attempt holds (a copy of its message: the queue delivers at least once), are returned as
   * they are; the caller runs the turn only when `heldBy` is its message.
   */
  begin(turnId: string, messageId: string): TurnRecord | null {
    const sql = this.ctx.storage.sql;
    const record = readTurn(sql, turnId);
    if (!record || ended(record)) return record ?? null;
    const holder = record.status === "running" ? record.heldBy : undefined;
    if (holder !== undefined && holder !== messageId && Date.now() - record.updatedAt < HOLD_MS)
      return record;
    markSent(sql, turnId);
    return this.#write({ ...record, status: "running", attempts: record.attempts + 1, heldBy: messageId });
  }

  /**
   * The turn waits for its session: `queued` again, one more wait, and (`afterBegin`, the session was busy)
   * the attempt `begin` counted is taken back: waiting is not a failed attempt. Ended turns stay as they are.
   */
  wait(turnId: string, afterBegin: boolean): TurnRecord | null {
    const record = readTurn(this.ctx.storage.sql, turnId);
    if (!record || ended(record)) return record ?? null;
    const attempts = afterBegin ? Math.max(0, record.attempts - 1) : record.attempts;
    markSent(this.ctx.storage.sql, turnId);
    return this.#write({ ...record, status: "queued", attempts, waits: record.waits + 1 });
  }

  /** Moves the turn on: `queued` again for a retry, `done`, or `failed`, with an error, result or place note. */
  settle(
    turnId: string,
    status: TurnStatus,
    note: { error?: string; result?: TurnRecord["result"]; place?: number } = {},
  ): TurnRecord | null {
    const record = readTurn(this.ctx.storage.sql, turnId);
    return record ? this.#write({ ...record, ...note, status }) : null;
  }

  /** Notes why an attempt could not run, whatever the turn's status (the dead letter then names it). */
  note(turnId: string, error: string): void {
    const record = readTurn(this.ctx.storage.sql, turnId);
    if (record) this.#write({ ...record, error });
  }

  /** The branch of mail thread `name` a message joins (see `joinThread`); `null` when it may start none. */
  joinThread(name: string, message: ThreadMessage): number | null {
    return joinThread(this.ctx.storage.sql, name, message);
  }

  /** The line's head, `null` when it is empty. */
  head(line: string): string | null {
    return lineHead(this.ctx.storage.sql, line) ?? null;
  }

  /** Takes `turnId` out of the line; returns the new head, `null` when it is empty. */
  leave(line: string, turnId: string): string | null {
    return leaveLine(this.ctx.storage.sql, line, turnId) ?? null;
  }

  /** Sweeps expired rows and sends the messages of due unsent turns, then sets itself for what comes next. */
  override async alarm(): Promise<void> {
    this.#alarmAt = null;
    const sql = this.ctx.storage.sql;
    const nextExpiry = sweepExpired(sql, Date.now());
    const log = (line: string) => console.warn(line);
    await sendUnsent(sql, Date.now(), objectQueueOf(this.env), log);
    const next = [nextExpiry, nextUnsentDue(sql)].filter((at) => at !== null);
    if (next.length > 0) await this.#alarmBy(Math.min(...next));
  }

  /** Makes sure the alarm fires at `at` or earlier (rows expire, and unsent turns fall due, after it). */
  async #alarmBy(at: number): Promise<void> {
    if (this.#alarmAt === undefined) this.#alarmAt = await this.ctx.storage.getAlarm();
    if (this.#alarmAt !== null && this.#alarmAt <= at) return;
    await this.ctx.storage.setAlarm(at);
    this.#alarmAt = at;
  }

  #write(record: TurnRecord): TurnRecord {
    const next = { ...record, updatedAt: Date.now() };
    updateTurn(this.ctx.storage.sql, next);
    return next;
  }
}

const ended = (record: TurnRecord) => record.status === "done" || record.status === "failed";
