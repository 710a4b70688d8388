import * as z from "zod";
import { BatonError } from "../core/errors.js";
import { type NewReminder, REMINDER_LIMITS, type Reminder } from "../core/reminder.js";
import { Command, Query } from "../storage/sql.js";

/** A reminder set, and the pending one with its key it replaced. */
export interface ReminderSet {
  reminder: Reminder;
  replaced: Reminder | null;
}
/** Migration step: the session's pending reminders, soonest first by `due_at`. */
export const REMINDER_TABLE_SQL = `CREATE TABLE reminders (
     id TEXT PRIMARY KEY,
     key TEXT UNIQUE,
     message TEXT NOT NULL,
     due_at INTEGER NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX reminders_due ON reminders (due_at);`;

const ReminderRowSchema = z
  .object({
    id: z.string(),
    key: z.string().nullable(),
    message: z.string(),
    due_at: z.number(),
    created_at: z.number(),
  })
  .transform(
    (row): Reminder => ({
      id: row.id,
      ...(row.key === null ? {} : { key: row.key }),
      message: row.message,
      dueAt: row.due_at,
      createdAt: row.created_at,
    }),
  );

const COLUMNS = "id, key, message, due_at, created_at";
const SELECT_ALL = new Query<[], Reminder>(
  `SELECT ${COLUMNS} FROM reminders ORDER BY due_at, id`,
  ReminderRowSchema,
);
const SELECT_DUE = new Query<[now: number], Reminder>(
  `SELECT ${COLUMNS} FROM reminders WHERE due_at <= ? ORDER BY due_at, id`,
  ReminderRowSchema,
);
const SELECT_BY_KEY_OR_ID = new Query<[keyOrId: string], Reminder>(
  `SELECT ${COLUMNS} FROM reminders WHERE key = ?1 OR id = ?1 ORDER BY key IS NULL LIMIT 1`,
  ReminderRowSchema,
);
const SELECT_NEXT = new Query<[], { due_at: number }>(
  "SELECT due_at FROM reminders ORDER BY due_at LIMIT 1",
  z.object({ due_at: z.number() }),
);
const COUNT = new Query<[], { n: number }>(
  "SELECT count(*) AS n FROM reminders",
  z.object({ n: z.number() }),
);
const INSERT = new Command<
  [id: string, key: string | null, message: string, dueAt: number, createdAt: number]
>(`INSERT INTO reminders (${COLUMNS}) VALUES (?, ?, ?, ?, ?)`);
const DELETE = new Command<[id: string]>("DELETE FROM reminders WHERE id = ?");
const DELETE_ALL = new Command<[]>("DELETE FROM reminders");

/**
 * A session's reminders in its Durable Object's SQLite: set (a key already pending is replaced), listed,
 * cancelled, and read when due. The object's alarm fires them; this class only keeps them.
 */
export class SessionReminders {
  constructor(private readonly storage: DurableObjectStorage) {}

  get #sql(): SqlStorage {
    return this.storage.sql;
  }

  /** Stores a reminder; `invalid_request` when the session already has the most it may. */
  set(input: NewReminder, id: string, now: number): ReminderSet {
    return this.storage.transactionSync(() => {
      const replaced =
        input.key === undefined ? null : (SELECT_BY_KEY_OR_ID.first(this.#sql, input.key) ?? null);
      if (replaced) DELETE.run(this.#sql, replaced.id);
      const count = COUNT.first(this.#sql)?.n ?? 0;
      if (count >= REMINDER_LIMITS.pendingPerSession)
        throw new BatonError(
          "invalid_request",
          `This session already has ${count} pending reminders, the most it may have; cancel some first.`,
        );
      INSERT.run(this.#sql, id, input.key ?? null, input.message, input.dueAt, now);
      const reminder: Reminder = { id, ...input, createdAt: now };
      return { reminder, replaced };
    });
  }

  list(): Reminder[] {
    return SELECT_ALL.all(this.#sql);
  }

  /** The pending reminders as the session's `_reminders` state shows them (the dev UI's State tab). */
  shown(): { id: string; key?: string; message: string; dueAt: string }[] {
    return this.list().map((r) => ({
      id: r.id,
      ...(r.key === undefined ? {} : { key: r.key }),
      message: r.message,
      dueAt: new Date(r.dueAt).toISOString(),
    }));
  }

  /** Cancels the reminder with this key (or, failing that, this id). */
  cancel(keyOrId: string): Reminder | null {
    const found = SELECT_BY_KEY_OR_ID.first(this.#sql, keyOrId);
    if (found) DELETE.run(this.#sql, found.id);
    return found ?? null;
  }

  due(now: number): Reminder[] {
    return SELECT_DUE.all(this.#sql, now);
  }

  /** A fired reminder leaves. */
  remove(id: string): void {
    DELETE.run(this.#sql, id);
  }

  /** A deleted session's reminders are dropped. */
  clear(): void {
    DELETE_ALL.run(this.#sql);
  }

  /** When the soonest reminder is due, or `null` with none pending. */
  nextAt(): number | null {
    return SELECT_NEXT.first(this.#sql)?.due_at ?? null;
  }
}
