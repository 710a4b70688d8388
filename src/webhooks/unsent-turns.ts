import * as z from "zod";
import { Command, Query } from "../storage/sql.js";
import type { TurnSender } from "./object-queue.js";
import { readTurn } from "./turn-shard-sql.js";

/**
 * Schema step 2 of a turn shard (decision 038, "Accepted, never sent"): the accepted turns whose queue
 * message is not known to be sent. A row is written with the turn and deleted once the sender confirms
 * the send, or a consumer picks the turn up; the shard's alarm sends a message for any row still here
 * when it is due.
 */
export const UNSENT_SQL = `
  CREATE TABLE unsent (
    turn_id TEXT PRIMARY KEY,
    due_at INTEGER NOT NULL,
    tries INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX unsent_due ON unsent (due_at);
  CREATE INDEX unsent_expiry ON unsent (expires_at);`;

/** How long the Worker that accepted a turn has to confirm its send before the shard sends one itself. */
export const SEND_GRACE_MS = 60_000;
/** The longest wait between two of the shard's sends of one turn when the queue keeps refusing. */
const MAX_RESEND_DELAY_MS = 60 * 60 * 1000;
/** Sends per alarm; more due rows make the alarm come back at once. */
const SENDS_PER_ALARM = 50;

const INSERT = new Command<[turnId: string, dueAt: number, expiresAt: number]>(
  "INSERT INTO unsent (turn_id, due_at, tries, expires_at) VALUES (?, ?, 0, ?)",
);
const DELETE = new Command<[turnId: string]>("DELETE FROM unsent WHERE turn_id = ?");
const DUE = new Query<[now: number, limit: number], { turn_id: string; tries: number }>(
  "SELECT turn_id, tries FROM unsent WHERE due_at <= ? ORDER BY due_at LIMIT ?",
  z.object({ turn_id: z.string(), tries: z.number().int() }),
);
const POSTPONE = new Command<[dueAt: number, tries: number, turnId: string]>(
  "UPDATE unsent SET due_at = ?, tries = ? WHERE turn_id = ?",
);
const NEXT_DUE = new Query<[], { at: number | null }>(
  "SELECT min(due_at) AS at FROM unsent",
  z.object({ at: z.number().nullable() }),
);

/** Notes a new turn's message as not yet sent: the alarm sends one at `dueAt` unless `markSent` comes first. */
export const markUnsent = (sql: SqlStorage, turnId: string, dueAt: number, expiresAt: number): void =>
  INSERT.run(sql, turnId, dueAt, expiresAt);

/** The turn's message went (its sender said so, or a consumer got one): nothing to send. */
export const markSent = (sql: SqlStorage, turnId: string): void => DELETE.run(sql, turnId);

/** When the next unsent turn is due, `null` when none is waiting. */
export const nextUnsentDue = (sql: SqlStorage): number | null => NEXT_DUE.first(sql)?.at ?? null;

/**
 * Sends the message of each due turn that is still `queued` and was never picked up (its Worker was cut
 * off between accepting it and sending, or the send's answer was lost). A turn that moved on only leaves
 * the list. A failed send is tried again later, with a doubling delay; the row expires with its turn.
 */
export async function sendUnsent(
  sql: SqlStorage,
  now: number,
  queue: TurnSender | null,
  log: (line: string) => void,
): Promise<void> {
  for (const { turn_id: turnId, tries } of DUE.all(sql, now, SENDS_PER_ALARM)) {
    const record = readTurn(sql, turnId);
    if (record?.status !== "queued") {
      markSent(sql, turnId);
      continue;
    }
    try {
      if (!queue) throw new Error("the TURNS (or REMINDER_QUEUE) producer is not bound");
      await queue.send({ turnId });
      markSent(sql, turnId);
      log(`Turn ${turnId} was accepted but its message was never confirmed sent; the turn shard sent it.`);
    } catch (error) {
      const delay = Math.min(MAX_RESEND_DELAY_MS, SEND_GRACE_MS * 2 ** tries);
      POSTPONE.run(sql, now + delay, tries + 1, turnId);
      log(
        `Turn ${turnId}: its message could not be sent (${String(error)}); trying again in ${delay / 1000} s.`,
      );
    }
  }
}
