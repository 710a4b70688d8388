import { userText } from "../core/content.js";
import type { Reminder } from "../core/reminder.js";
import type { SessionKey } from "../core/session.js";
import type { ScheduledConcern } from "../storage/alarm-dispatcher.js";
import { enqueueTurn } from "../webhooks/enqueue-turn.js";
import { objectQueueOf } from "../webhooks/object-queue.js";
import { type TurnNamespace, turnLedger } from "../webhooks/turn-ledger.js";
import type { TurnMessage } from "../webhooks/turn-record.js";
import type { SessionReminders } from "./session-reminders.js";

/** How long a reminder that could not be queued waits before the alarm tries it again. */
export const REQUEUE_DELAY_MS = 30_000;

/** Where fired reminders go: the turn objects and the queue of queued turns (wrangler bindings). */
export interface ReminderQueue {
  turns: TurnNamespace;
  queue: { send(message: TurnMessage): Promise<unknown> };
}

/** The queue bindings from the object's env: `WEBHOOK_TURNS` and the producer `REMINDER_QUEUE` names (default `TURNS`). */
export function reminderQueueOf(env: object): ReminderQueue | null {
  const queue = objectQueueOf(env);
  const turns: unknown = Reflect.get(env, "WEBHOOK_TURNS");
  if (!queue || !isObjectWith(turns, "idFromName")) return null;
  // SAFETY: the binding wrangler.toml declares under this name is the TurnObject namespace.
  return { queue, turns: turns as TurnNamespace };
}

const isObjectWith = (value: unknown, method: string): value is object =>
  typeof value === "object" && value !== null && typeof Reflect.get(value, method) === "function";

/**
 * The session object's reminders as an alarm concern: due reminders become queued turns of the session
 * (origin `reminder`, deduplicated by the reminder's id, so an alarm retried after a crash queues each
 * once), and leave. A session that no longer exists drops them.
 */
export function reminderConcern(options: {
  reminders: SessionReminders;
  session: () => SessionKey | null;
  queue: () => ReminderQueue | null;
  log: (message: string) => void;
  /** Called after reminders fired or were dropped (the object shows the pending list again). */
  changed: () => void;
}): ScheduledConcern {
  let retryAt: number | null = null;
  return {
    nextAlarmAt: () => {
      const next = options.reminders.nextAt();
      return next === null ? null : Math.max(next, retryAt ?? next);
    },
    async onAlarm(now) {
      retryAt = null;
      const due = options.reminders.due(now);
      if (due.length === 0) return;
      const key = options.session();
      if (!key) {
        options.reminders.clear();
        return;
      }
      const queue = options.queue();
      if (!queue) {
        options.log(
          "Reminders are due but the TURNS queue or WEBHOOK_TURNS binding is missing; retrying later.",
        );
        retryAt = now + REQUEUE_DELAY_MS;
        return;
      }
      for (const reminder of due) {
        try {
          await fire(key, reminder, queue);
          options.reminders.remove(reminder.id);
        } catch (error) {
          options.log(
            `Reminder ${reminder.id} of session ${key.sessionId} could not be queued: ${String(error)}`,
          );
          retryAt = now + REQUEUE_DELAY_MS;
        }
      }
      options.changed();
    },
  };
}

async function fire(key: SessionKey, reminder: Reminder, queue: ReminderQueue): Promise<void> {
  const claim = {
    appName: key.appName,
    origin: "reminder" as const,
    source: reminder.key ?? reminder.id,
    deliveryId: reminder.id,
    turn: { userId: key.userId, sessionId: key.sessionId, newMessage: userText(reminder.message) },
  };
  const ids = { uuid: () => crypto.randomUUID() };
  await enqueueTurn(claim, { ledger: turnLedger(queue.turns), queue: queue.queue, ids });
}
