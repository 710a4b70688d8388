import { DurableObject } from "cloudflare:workers";
import { migrate } from "../session/sql.js";
import type { NewTurnRecord, TurnRecord, TurnStatus } from "./turn-record.js";
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
} from "./turn-shard-sql.js";

/** How long a delivery id (and a body's hash) is remembered: duplicates within this window get the same turn. */
export const RETAIN_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * One shard of the durable state of queued turns (webhooks, schedules, email, reminders), decision 038. A
 * fixed number of these hold every turn, each session's turns in the shard its key hashes to
 * (`turn-ledger.ts`), so accepting a delivery is one write to an object that already exists instead of
 * writes to new objects. A shard keeps, for its sessions:
 * - turn records by turn id: a delivery's dedupe guard and its record. All copies of a delivery meet in
 *   the same shard (a delivery's body names its session), and the object's single thread makes `accept`
 *   a check-and-set (no await between the read and the writes);
 * - replay guards by a body's hash (schemes that sign no id or time);
 * - session lines (the order one session's queued turns run in).
 * Each row is deleted `RETAIN_MS` after it was written, by the shard's alarm.
 */
export class TurnObject extends DurableObject {
  /** Whether an alarm is known to be set (rows only expire later than the alarm that is set). */
  #alarmSet = false;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    migrate(ctx.storage, [TURN_SHARD_SQL]);
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
    await this.#expireAt(expiresAt);
    return { created: true, turnId: fresh.turnId, record };
  }

  /** Undoes `accept` (its message could not be enqueued), so the provider's retry is accepted afresh. */
  withdraw(turnId: string, line: string, guard?: string): void {
    const sql = this.ctx.storage.sql;
    deleteTurn(sql, turnId);
    leaveLine(sql, line, turnId);
    if (guard !== undefined) releaseGuard(sql, guard, turnId);
  }

  get(turnId: string): TurnRecord | null {
    return readTurn(this.ctx.storage.sql, turnId) ?? null;
  }

  /** An attempt starts: a queued (or interrupted running) turn becomes `running`. Ended turns are returned as they are. */
  begin(turnId: string): TurnRecord | null {
    const record = readTurn(this.ctx.storage.sql, turnId);
    if (!record || ended(record)) return record ?? null;
    return this.#write({ ...record, status: "running", attempts: record.attempts + 1 });
  }

  /**
   * The turn waits for its session: `queued` again, one more wait, and (`afterBegin`, the session was busy)
   * the attempt `begin` counted is taken back: waiting is not a failed attempt. Ended turns stay as they are.
   */
  wait(turnId: string, afterBegin: boolean): TurnRecord | null {
    const record = readTurn(this.ctx.storage.sql, turnId);
    if (!record || ended(record)) return record ?? null;
    const attempts = afterBegin ? Math.max(0, record.attempts - 1) : record.attempts;
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

  /** The line's head, `null` when it is empty. */
  head(line: string): string | null {
    return lineHead(this.ctx.storage.sql, line) ?? null;
  }

  /** Takes `turnId` out of the line; returns the new head, `null` when it is empty. */
  leave(line: string, turnId: string): string | null {
    return leaveLine(this.ctx.storage.sql, line, turnId) ?? null;
  }

  override async alarm(): Promise<void> {
    this.#alarmSet = false;
    const next = sweepExpired(this.ctx.storage.sql, Date.now());
    if (next !== null) await this.#expireAt(next);
  }

  /** Makes sure an alarm will sweep a row that expires at `at` (an alarm already set is earlier). */
  async #expireAt(at: number): Promise<void> {
    if (this.#alarmSet) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(at);
    this.#alarmSet = true;
  }

  #write(record: TurnRecord): TurnRecord {
    const next = { ...record, updatedAt: Date.now() };
    updateTurn(this.ctx.storage.sql, next);
    return next;
  }
}

const ended = (record: TurnRecord) => record.status === "done" || record.status === "failed";
