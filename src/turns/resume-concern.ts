import type { Content } from "../core/content.js";
import type { SessionKey } from "../core/session.js";
import type { ReminderQueue } from "../schedules/reminder-concern.js";
import type { Lease } from "../session/lease.js";
import type { ScheduledConcern } from "../storage/alarm-dispatcher.js";
import { enqueueTurn } from "../webhooks/enqueue-turn.js";
import { turnLedger } from "../webhooks/turn-ledger.js";

/**
 * The running turn, kept in the object's storage beside its lease so that an object that restarted (an
 * isolate that died mid-turn, a deploy, an eviction) still knows a turn began and did not end.
 */
export interface TurnMarker {
  invocationId: string;
  userEventId: string;
  /** Resumes queued so far for this invocation. */
  resumes: number;
  /** When the last resume was queued: if the turn has not begun again by `retryAt`, queue another. */
  retryAt?: number;
}

const MARKER_KEY = "turn:marker";

/** Resumes of one invocation before the object gives up on it (each is a queued turn, itself retried). */
export const MAX_RESUMES = 3;
/** A lapsed lease is judged dead this long after its expiry (its heartbeat renews every third of its TTL). */
const GRACE_MS = 1_000;
/** How long a queued resume has to begin its turn before another is queued. */
const RETRY_MS = 60_000;

/** A dead turn to resume: its session, its stored user message and the ids it keeps. */
export interface ResumedTurn {
  key: SessionKey;
  message: Content;
  invocationId: string;
  userEventId: string;
}

/** The marker in the object's synchronous key-value storage (no schema step: one key). */
export class TurnMarkers {
  constructor(private readonly kv: SyncKvStorage) {}

  get(): TurnMarker | undefined {
    return this.kv.get<TurnMarker>(MARKER_KEY);
  }

  /** Marks `invocationId` as running; a resumed invocation keeps its count of resumes. */
  began(invocationId: string, userEventId: string): void {
    const current = this.get();
    const resumes = current?.invocationId === invocationId ? current.resumes : 0;
    this.kv.put<TurnMarker>(MARKER_KEY, { invocationId, userEventId, resumes });
  }

  set(marker: TurnMarker): void {
    this.kv.put(MARKER_KEY, marker);
  }

  clear(): void {
    this.kv.delete(MARKER_KEY);
  }
}

/**
 * A turn that died as an alarm concern (decision 028): when the marked turn's lease has lapsed, the turn
 * runs again under the same invocation and user event ids, from the stored events: in the session's object
 * itself when it knows the app that ran it (`resumeHere`, decision 040), else queued (origin `resume`, on
 * the queue reminders use) for the Worker's consumer. Past `MAX_RESUMES`, or with neither, it is given up
 * (logged) and the session is left free as before.
 */
export function resumeConcern(options: {
  markers: TurnMarkers;
  lease: () => Lease | null;
  session: () => SessionKey | null;
  /** The stored user event's content of `userEventId`, or `undefined` when it is not stored. */
  message: (userEventId: string) => Content | undefined;
  queue: () => ReminderQueue | null;
  /**
   * Resumes the turn in this object (decision 040), with the app that ran it here; `false` when no such
   * app is known in this isolate, and the turn is queued instead.
   */
  resumeHere?: (turn: ResumedTurn) => Promise<boolean>;
  log: (message: string) => void;
}): ScheduledConcern {
  return {
    nextAlarmAt: () => {
      const marker = options.markers.get();
      if (!marker) return null;
      const lapses = (options.lease()?.expiresAt ?? 0) + GRACE_MS;
      return Math.max(lapses, marker.retryAt ?? 0);
    },
    async onAlarm(now) {
      const { markers, log } = options;
      const marker = markers.get();
      const lease = options.lease();
      if (!marker || (lease !== null && lease.expiresAt + GRACE_MS > now)) return;
      if ((marker.retryAt ?? 0) > now) return;
      const key = options.session();
      const message = options.message(marker.userEventId);
      const queue = options.queue();
      const giveUp = (why: string) => {
        log(`Turn ${marker.invocationId} died and is not resumed: ${why}`);
        markers.clear();
      };
      if (!key || !message) return giveUp("its session or user event is gone");
      if (marker.resumes >= MAX_RESUMES) return giveUp(`it was resumed ${MAX_RESUMES} times already`);
      const resumes = marker.resumes + 1;
      const turn = { key, message, invocationId: marker.invocationId, userEventId: marker.userEventId };
      // Marked first: the resumed turn's begin keeps this count (`TurnMarkers.began`).
      markers.set({ ...marker, resumes, retryAt: now + RETRY_MS });
      if (await options.resumeHere?.(turn)) {
        log(`Turn ${marker.invocationId} died; resume ${resumes} runs in its session's object.`);
        return;
      }
      if (!queue) return giveUp("the TURNS queue or WEBHOOK_TURNS binding is missing");
      const claim = {
        appName: key.appName,
        origin: "resume" as const,
        source: marker.invocationId,
        deliveryId: `${marker.invocationId}#${resumes}`,
        turn: { userId: key.userId, sessionId: key.sessionId, newMessage: message },
        invocationId: marker.invocationId,
        userEventId: marker.userEventId,
      };
      const ids = { uuid: () => crypto.randomUUID() };
      await enqueueTurn(claim, { ledger: turnLedger(queue.turns), queue: queue.queue, ids });
      log(`Turn ${marker.invocationId} died; resume ${resumes} is queued.`);
    },
  };
}
