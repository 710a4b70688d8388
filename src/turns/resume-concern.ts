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
  /** The turn ran inside this object (decision 040): it died with the lifetime of the object that ran it. */
  here?: boolean;
  /** The app's root agent: the author of what the object records for the turn when no agent spoke yet. */
  agent?: string;
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

/**
 * The marker in the object's synchronous key-value storage (no schema step: one key), read once per
 * lifetime of the object and then kept in memory beside what it writes.
 */
export class TurnMarkers {
  #marker: TurnMarker | null | undefined;
  /** The invocation a turn of this lifetime began: its runner is this lifetime's (or outside the object). */
  #ours: string | undefined;
  /** When this lifetime of the object began. */
  readonly bornAt = Date.now();

  constructor(private readonly kv: SyncKvStorage) {}

  get(): TurnMarker | undefined {
    this.#marker ??= this.kv.get<TurnMarker>(MARKER_KEY) ?? null;
    return this.#marker ?? undefined;
  }

  /**
   * The marked turn, if it ran inside this object in an earlier lifetime: it died with that lifetime (an
   * object that starts again knows no earlier instance of itself is alive), whatever its lease says.
   */
  diedHere(): TurnMarker | undefined {
    const marker = this.get();
    return marker?.here && marker.invocationId !== this.#ours ? marker : undefined;
  }

  /** Marks `invocationId` as running; a resumed invocation keeps its count of resumes. */
  began(invocationId: string, userEventId: string, how: { here: boolean; agent?: string | undefined }): void {
    const current = this.get();
    const resumes = current?.invocationId === invocationId ? current.resumes : 0;
    const agent = how.agent === undefined ? {} : { agent: how.agent };
    this.#ours = invocationId;
    this.set({ invocationId, userEventId, resumes, ...(how.here ? { here: true } : {}), ...agent });
  }

  /** Forgets the kept copy (storage was changed behind it: the session deleted). */
  drop(): void {
    this.#marker = undefined;
  }

  set(marker: TurnMarker): void {
    this.#marker = marker;
    this.kv.put(MARKER_KEY, marker);
  }

  clear(): void {
    this.#marker = null;
    this.kv.delete(MARKER_KEY);
  }
}

/**
 * A turn that died as an alarm concern (decisions 028 and 047): a turn that ran in this object and did not
 * end before the object restarted is resumed at once (the alarm is set from the constructor); a turn run
 * outside (the queue consumer, A2A in the Worker) once its lease lapsed. It runs again under the same
 * invocation and user event ids, from the stored events: in the session's object itself when it knows
 * the app that ran it (`resumeHere`, decision 040), else queued (origin `resume`, on the queue reminders
 * use) for the Worker's consumer. Past `MAX_RESUMES`, or with neither, it is given up: `abandon` answers
 * it (its open calls and an error event) and frees the session.
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
  /** Frees the session from the lease of a turn that died with an earlier lifetime of the object. */
  release: () => void;
  /** Gives the turn up: records why, answers what it left open and frees the session. */
  abandon: (marker: TurnMarker, why: string) => void;
  log: (message: string) => void;
}): ScheduledConcern {
  const { markers, log } = options;
  return {
    nextAlarmAt: () => {
      const marker = markers.get();
      if (!marker) return null;
      if (markers.diedHere()) return markers.bornAt;
      const lapses = (options.lease()?.expiresAt ?? 0) + GRACE_MS;
      return Math.max(lapses, marker.retryAt ?? 0);
    },
    async onAlarm(now) {
      const marker = markers.get();
      if (!marker) return;
      // A turn that died with an earlier lifetime goes at once: its lease goes with it, whatever it says.
      if (markers.diedHere()) options.release();
      else {
        const lease = options.lease();
        if (lease !== null && lease.expiresAt + GRACE_MS > now) return;
        if ((marker.retryAt ?? 0) > now) return;
      }
      const key = options.session();
      const message = options.message(marker.userEventId);
      const giveUp = (why: string) => {
        log(`Turn ${marker.invocationId} died and is not resumed: ${why}`);
        options.abandon(marker, why);
      };
      if (!key || !message) return giveUp("its session or user event is gone");
      if (marker.resumes >= MAX_RESUMES) return giveUp(`it was resumed ${MAX_RESUMES} times already`);
      const resumes = marker.resumes + 1;
      const turn = { key, message, invocationId: marker.invocationId, userEventId: marker.userEventId };
      // Marked first: the resumed turn's begin keeps this count (`TurnMarkers.began`) and marks it `here`
      // again if it runs here; queued, it is a turn outside the object like any other.
      const { here: _died, ...outside } = marker;
      markers.set({ ...outside, resumes, retryAt: now + RETRY_MS });
      if (await options.resumeHere?.(turn)) {
        log(`Turn ${marker.invocationId} died; resume ${resumes} runs in its session's object.`);
        return;
      }
      const queue = options.queue();
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
