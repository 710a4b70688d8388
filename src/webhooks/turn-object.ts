import { DurableObject } from "cloudflare:workers";
import { type NewTurnRecord, type TurnRecord, TurnRecordSchema, type TurnStatus } from "./turn-record.js";

/** How long a delivery id is remembered: duplicates within this window get the same turn. */
export const RETAIN_MS = 7 * 24 * 60 * 60 * 1000;

const KEY = "turn";

/**
 * One webhook delivery: the dedupe guard and the turn's record. Named by `(app, hook, delivery id)`, so all
 * copies of a delivery meet here, and the object's single thread makes `claim` a check-and-set (the sync KV
 * API has no await between reading and writing). An alarm deletes everything after seven days.
 */
export class TurnObject extends DurableObject {
  /** Records the turn unless this delivery was seen before; either way returns the record that stands. */
  async claim(fresh: NewTurnRecord): Promise<{ created: boolean; record: TurnRecord }> {
    const existing = this.#read();
    if (existing) return { created: false, record: existing };
    const now = Date.now();
    const record: TurnRecord = { ...fresh, status: "queued", attempts: 0, createdAt: now, updatedAt: now };
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
    if (!record || record.status === "done" || record.status === "failed") return record ?? null;
    return this.#write({ ...record, status: "running", attempts: record.attempts + 1 });
  }

  /** Moves the turn on: `queued` again for a retry, `done`, or `failed`, with an error or result note. */
  settle(
    status: TurnStatus,
    note: { error?: string; result?: TurnRecord["result"] } = {},
  ): TurnRecord | null {
    const record = this.#read();
    return record ? this.#write({ ...record, ...note, status }) : null;
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
