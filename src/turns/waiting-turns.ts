import * as z from "zod";
import { type Event, EventSchema } from "../core/event.js";
import type { SessionKey } from "../core/session.js";
import type { ReminderQueue } from "../schedules/reminder-concern.js";
import type { ScheduledConcern } from "../storage/alarm-dispatcher.js";
import { Command, parseJson, Query } from "../storage/sql.js";
import { enqueueTurn } from "../webhooks/enqueue-turn.js";
import { turnLedger } from "../webhooks/turn-ledger.js";

/**
 * Migration step: the turns waiting in the session's line (double-texting `enqueue`, decision 028), by the
 * id of the user event each will store, in arrival order. A row lives from the turn's arrival until it
 * begins (or is refused): what the object's memory loses in a restart, its storage keeps.
 */
export const WAITING_TURNS_SQL = `CREATE TABLE waiting_turns (
     event_id TEXT PRIMARY KEY,
     arrived_at INTEGER NOT NULL,
     event TEXT NOT NULL
   );`;

const INSERT = new Command<[eventId: string, arrivedAt: number, event: string]>(
  "INSERT INTO waiting_turns (event_id, arrived_at, event) VALUES (?, ?, ?) ON CONFLICT (event_id) DO NOTHING",
);
const ARRIVED = new Query<[eventId: string], { arrived_at: number }>(
  "SELECT arrived_at FROM waiting_turns WHERE event_id = ?",
  z.object({ arrived_at: z.number() }),
);
const DELETE = new Command<[eventId: string]>("DELETE FROM waiting_turns WHERE event_id = ?");
const ALL = new Query<[], { event_id: string; arrived_at: number; event: string }>(
  "SELECT event_id, arrived_at, event FROM waiting_turns ORDER BY arrived_at, rowid",
  z.object({ event_id: z.string(), arrived_at: z.number(), event: z.string() }),
);

/**
 * The stored line of waiting turns, and which of them a caller still waits for in this lifetime of the
 * object. A row no caller holds is an orphan: its caller waited in an earlier lifetime (the object
 * restarted under it) and did not come back.
 */
export class WaitingTurns {
  readonly #held = new Set<string>();
  constructor(private readonly sql: SqlStorage) {}

  /**
   * A caller waits with `event`: its row is written (or, for a caller that came back after a restart,
   * kept); returns its arrival time, which is its place in the line.
   */
  arrive(event: Event, now: number): number {
    INSERT.run(this.sql, event.id, now, JSON.stringify(event));
    this.#held.add(event.id);
    return ARRIVED.first(this.sql, event.id)?.arrived_at ?? now;
  }

  /** The caller stopped waiting (its turn began, or was refused). */
  leave(eventId: string): void {
    this.#held.delete(eventId);
    DELETE.run(this.sql, eventId);
  }

  /** The stored user events no caller waits for, in arrival order, with their arrival times. */
  orphans(): { event: Event; arrivedAt: number }[] {
    return ALL.all(this.sql)
      .filter((row) => !this.#held.has(row.event_id))
      .map((row) => ({ event: EventSchema.parse(parseJson(row.event)), arrivedAt: row.arrived_at }));
  }

  /** Forgets an orphan once its turn is queued (or given up). */
  drop(eventId: string): void {
    DELETE.run(this.sql, eventId);
  }
}

/**
 * How long after its arrival an orphan is left for its caller to come back (a caller whose call broke asks
 * again at once, and its call is what starts the object again, so it holds its row before any alarm).
 */
export const RETURN_GRACE_MS = 10_000;

/**
 * Orphaned waiting turns as an alarm concern: each orphan `RETURN_GRACE_MS` after its arrival is queued as
 * a turn of origin `resume` with its own invocation and user event ids (the turn queue's consumer then
 * waits in the line like any caller), in arrival order, and leaves the table. With no session or no queue
 * bound they are given up (logged), as a dead turn's resume is. A caller that comes back after its turn
 * was queued runs the same invocation: whichever begins second finds it stored and runs nothing more.
 */
export function waitingConcern(options: {
  waiting: WaitingTurns;
  session: () => SessionKey | null;
  queue: () => ReminderQueue | null;
  log: (message: string) => void;
}): ScheduledConcern {
  const { waiting, log } = options;
  return {
    nextAlarmAt: () => {
      const first = waiting.orphans()[0];
      return first ? first.arrivedAt + RETURN_GRACE_MS : null;
    },
    async onAlarm(now) {
      const due = waiting.orphans().filter((orphan) => orphan.arrivedAt + RETURN_GRACE_MS <= now);
      const key = options.session();
      const queue = options.queue();
      const missing = !key ? "its session is gone" : "the TURNS queue or WEBHOOK_TURNS binding is missing";
      for (const { event } of due) {
        if (!key || !queue) {
          log(`Turn ${event.invocationId} waited in line when its object restarted; dropped: ${missing}.`);
          waiting.drop(event.id);
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
        waiting.drop(event.id);
        log(`Turn ${event.invocationId} waited in line when its session's object restarted; it is queued.`);
      }
    },
  };
}
