import { DurableObject } from "cloudflare:workers";
import { enroll, head, leave } from "./session-line.js";
import { type NewTurnRecord, type TurnRecord, TurnRecordSchema, type TurnStatus } from "./turn-record.js";

/** How long a delivery id (and a body's hash) is remembered: duplicates within this window get the same turn. */
export const RETAIN_MS = 7 * 24 * 60 * 60 * 1000;

const KEY = "turn";
const OWNER = "owner";

/**
 * The durable state of webhook turns, one object per name (the storage keys of each role are disjoint):
 * - named by `(app, hook, delivery id)`: the delivery's dedupe guard and its turn record. All copies of a
 *   delivery meet here, and the object's single thread makes `claim` a check-and-set (the sync KV API has
 *   no await between reading and writing);
 * - named by a body's hash (schemes that sign no id or time): the replay guard, `guard`;
 * - named by a session: that session's line of queued turns (`session-line.ts`), so they run in arrival order.
 * An alarm deletes everything seven days after the last write that sets it.
 */
export class TurnObject extends DurableObject {
  /** Records the turn unless this delivery was seen before; either way returns the record that stands. */
  async claim(fresh: NewTurnRecord): Promise<{ created: boolean; record: TurnRecord }> {
    const existing = this.#read();
    if (existing) return { created: false, record: existing };
    const now = Date.now();
    const record: TurnRecord = {
      ...fresh,
      status: "queued",
      attempts: 0,
      waits: 0,
      createdAt: now,
      updatedAt: now,
    };
    this.ctx.storage.kv.put(KEY, record);
    await this.ctx.storage.setAlarm(now + RETAIN_MS);
    return { created: true, record };
  }

  /** Drops a claim whose message could not be enqueued, so the provider's retry is accepted afresh. */
  async forget(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }

  get(): TurnRecord | null {
    return this.#read() ?? null;
  }

  /** An attempt starts: a queued (or interrupted running) turn becomes `running`. Ended turns are returned as they are. */
  begin(): TurnRecord | null {
    const record = this.#read();
    if (!record || ended(record)) return record ?? null;
    return this.#write({ ...record, status: "running", attempts: record.attempts + 1 });
  }

  /**
   * The turn waits for its session: `queued` again, one more wait, and (`afterBegin`, the session was busy)
   * the attempt `begin` counted is taken back: waiting is not a failed attempt. Ended turns stay as they are.
   */
  wait(afterBegin: boolean): TurnRecord | null {
    const record = this.#read();
    if (!record || ended(record)) return record ?? null;
    const attempts = afterBegin ? Math.max(0, record.attempts - 1) : record.attempts;
    return this.#write({ ...record, status: "queued", attempts, waits: record.waits + 1 });
  }

  /** Moves the turn on: `queued` again for a retry, `done`, or `failed`, with an error, result or place note. */
  settle(
    status: TurnStatus,
    note: { error?: string; result?: TurnRecord["result"]; place?: number } = {},
  ): TurnRecord | null {
    const record = this.#read();
    return record ? this.#write({ ...record, ...note, status }) : null;
  }

  /** Notes why an attempt could not run, whatever the turn's status (the dead letter then names it). */
  note(error: string): void {
    const record = this.#read();
    if (record) this.#write({ ...record, error });
  }

  /** The replay guard: the turn that first came with this body, `turnId` when none did. */
  async guard(turnId: string): Promise<string> {
    const owner = this.ctx.storage.kv.get<string>(OWNER);
    if (owner !== undefined) return owner;
    this.ctx.storage.kv.put(OWNER, turnId);
    await this.ctx.storage.setAlarm(Date.now() + RETAIN_MS);
    return turnId;
  }

  /** Forgets the replay guard's turn (its message could not be enqueued). */
  release(turnId: string): void {
    if (this.ctx.storage.kv.get<string>(OWNER) === turnId) this.ctx.storage.kv.delete(OWNER);
  }

  /** The session line: `turnId` joins it (once); returns its place, from 1. */
  async enroll(turnId: string): Promise<number> {
    const place = enroll(this.ctx.storage.kv, turnId);
    await this.ctx.storage.setAlarm(Date.now() + RETAIN_MS);
    return place;
  }

  /** The session line's head, `null` when it is empty. */
  head(): string | null {
    return head(this.ctx.storage.kv) ?? null;
  }

  /** Takes `turnId` out of the session line; returns the new head, `null` when it is empty. */
  leave(turnId: string): string | null {
    return leave(this.ctx.storage.kv, turnId) ?? null;
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }

  #read(): TurnRecord | undefined {
    const raw = this.ctx.storage.kv.get(KEY);
    return raw === undefined ? undefined : TurnRecordSchema.parse(raw);
  }

  #write(record: TurnRecord): TurnRecord {
    const next = { ...record, updatedAt: Date.now() };
    this.ctx.storage.kv.put(KEY, next);
    return next;
  }
}

const ended = (record: TurnRecord) => record.status === "done" || record.status === "failed";
