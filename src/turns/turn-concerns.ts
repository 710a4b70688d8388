import type { SessionKey } from "../core/session.js";
import type { ReminderQueue } from "../schedules/reminder-concern.js";
import type { Lease } from "../session/lease.js";
import type { ScheduledConcern } from "../storage/alarm-dispatcher.js";
import type { ObjectTurns } from "./object-turns.js";
import { resumeConcern, type TurnMarkers } from "./resume-concern.js";
import type { TurnWrites } from "./turn-writes.js";
import { waitingConcern } from "./waiting-concern.js";

/**
 * The alarm concerns of the turns in a session's object (decisions 028, 040, 047), in the order they run
 * when the alarm fires: a dead turn's resume first, then the orphans of the waiting line (which wait behind
 * it), then the keep-alive beat of the turns running here. `dueAtStart` says whether an object that just
 * started must set its alarm at once: a turn that ran here died with its last lifetime, or turns waited.
 */
export function turnConcerns(options: {
  markers: TurnMarkers;
  turns: TurnWrites;
  running: ObjectTurns;
  lease: () => Lease | null;
  session: () => SessionKey | null;
  queue: () => ReminderQueue | null;
  log: (message: string) => void;
}): { concerns: ScheduledConcern[]; dueAtStart: () => boolean } {
  const { markers, turns, running, session, queue, log } = options;
  const resumes = resumeConcern({
    markers,
    lease: options.lease,
    session,
    message: (userEventId) => turns.storedEvent(userEventId)?.content,
    queue,
    resumeHere: (turn) => running.resume(turn),
    release: () => turns.releaseDead(),
    abandon: (marker, why) => turns.abandon(marker, why),
    log,
  });
  const waiting = waitingConcern({
    waiting: turns.waiting,
    session,
    queue,
    bornAt: markers.bornAt,
    runHere: running,
    log,
  });
  return {
    concerns: [resumes, waiting, running.beat],
    dueAtStart: () => markers.diedHere() !== undefined || turns.waiting.orphans().length > 0,
  };
}
