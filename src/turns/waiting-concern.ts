import type { Event } from "../core/event.js";
import type { SessionKey } from "../core/session.js";
import type { ReminderQueue } from "../schedules/reminder-concern.js";
import type { ScheduledConcern } from "../storage/alarm-dispatcher.js";
import { enqueueTurn } from "../webhooks/enqueue-turn.js";
import { turnLedger } from "../webhooks/turn-ledger.js";
import type { Orphan, WaitingTurns } from "./waiting-turns.js";

/**
 * How long after its arrival an orphan whose caller waited outside the object is left for that caller to
 * come back (a caller whose call broke asks again at once, and its call is what starts the object again,
 * so it holds its row before any alarm).
 */
export const RETURN_GRACE_MS = 10_000;

/**
 * Orphaned waiting turns as an alarm concern (decisions 028 and 047). An orphan whose caller waited inside
 * the object (its turn would have run here) is gone with the object's last lifetime: it is due at once.
 * One whose caller waited outside is due `RETURN_GRACE_MS` after its arrival. A due orphan runs in the
 * object itself when the object knows the app that ran its turns (`runHere`): it takes its place back in
 * the line, behind a dead turn's resume and in arrival order. Otherwise it is queued as a turn of origin
 * `resume` with its own invocation and user event ids (the turn queue's consumer then waits in the line
 * like any caller), in arrival order, and leaves the table. With no session or no queue bound it is given
 * up (logged). A caller that comes back after its turn was queued runs the same invocation: whichever
 * begins second finds it stored and runs nothing more.
 */
export function waitingConcern(options: {
  waiting: WaitingTurns;
  session: () => SessionKey | null;
  queue: () => ReminderQueue | null;
  /** When this lifetime of the object began (an orphan that waited inside it is due then). */
  bornAt: number;
  /**
   * Runs an orphan's turn in the object when `canRunHere()` (not awaited: it waits in line); `gone` when it
   * could not even wait. `ObjectTurns` is one.
   */
  runHere?: {
    canRunHere(): boolean;
    runWaiting(key: SessionKey, event: Event, gone: (why: string) => void): void;
  };
  log: (message: string) => void;
}): ScheduledConcern {
  const { waiting, log } = options;
  const dueAt = (orphan: Orphan) => (orphan.here ? options.bornAt : orphan.arrivedAt + RETURN_GRACE_MS);
  return {
    nextAlarmAt: () => {
      const times = waiting.orphans().map(dueAt);
      return times.length === 0 ? null : Math.min(...times);
    },
    async onAlarm(now) {
      const due = waiting.orphans().filter((orphan) => dueAt(orphan) <= now);
      const key = options.session();
      const queue = options.queue();
      const missing = !key ? "its session is gone" : "the TURNS queue or WEBHOOK_TURNS binding is missing";
      for (const orphan of due) {
        const { event } = orphan;
        if (key && options.runHere?.canRunHere()) {
          // Held before it runs: no later alarm runs it a second time.
          waiting.hold(event.id);
          options.runHere.runWaiting(key, event, (why) => {
            log(`Turn ${event.invocationId} waited in line when its object restarted; dropped: ${why}`);
            waiting.forgetOrphan(event.id);
          });
          log(`Turn ${event.invocationId} waited in line when its object restarted; it runs in the object.`);
          continue;
        }
        if (!key || !queue) {
          log(`Turn ${event.invocationId} waited in line when its object restarted; dropped: ${missing}.`);
          waiting.forgetOrphan(event.id);
          continue;
        }
        const claim = {
          appName: key.appName,
          origin: "resume" as const,
          source: event.invocationId,
          deliveryId: `${event.invocationId}#waiting`,
          turn: {
            userId: key.userId,
            sessionId: key.sessionId,
            newMessage: event.content ?? { role: "user", parts: [] },
            ...(Object.keys(event.actions.stateDelta).length > 0
              ? { stateDelta: event.actions.stateDelta }
              : {}),
          },
          invocationId: event.invocationId,
          userEventId: event.id,
        };
        const ids = { uuid: () => crypto.randomUUID() };
        await enqueueTurn(claim, { ledger: turnLedger(queue.turns), queue: queue.queue, ids });
        waiting.forgetOrphan(event.id);
        log(`Turn ${event.invocationId} waited in line when its session's object restarted; it is queued.`);
      }
    },
  };
}
