import { BatonError, errorFields } from "../core/errors.js";
import { createEvent, type EventEnv } from "../core/event.js";
import { answersTo, openCalls, unansweredMessage } from "../core/open-calls.js";
import type { InvocationFeeds } from "../session/invocation-feeds.js";
import type { SessionCache } from "../session/session-cache.js";
import type { SessionLog } from "../session/session-log.js";
import type { TurnMarker } from "./resume-concern.js";

/** How the object's own events (cancels, answers, a turn given up) get their ids and times. */
export const OBJECT_EVENTS: EventEnv = {
  ids: { uuid: () => crypto.randomUUID() },
  clock: { now: () => Date.now() },
};

/**
 * What the session's object records of a turn itself, not through its runner (decision 047): the answers
 * to the calls a turn left open when it ends, stops or is given up, so that the stored session never holds
 * a function call without its response (no provider takes such a history); and the error event of a dead
 * turn that could not be resumed, so that its message is answered.
 */
export class TurnRecords {
  constructor(
    private readonly log: SessionLog,
    private readonly feeds: InvocationFeeds,
  ) {}

  /** Answers each call of `invocationId` that has no stored response with an error saying so. */
  answerOpenCalls(cache: SessionCache, invocationId: string): void {
    const open = openCalls(this.log.newestFirst(cache), invocationId);
    if (open.length === 0) return;
    for (const answer of answersTo(open, invocationId, unansweredMessage, OBJECT_EVENTS)) {
      const written = this.log.write(cache, answer);
      if (written.ok) this.feeds.publish(answer);
    }
  }

  /** Before a new invocation's user event: the newest invocation in the log left nothing open. */
  answerLastTurn(cache: SessionCache): void {
    const newest = this.log.newestFirst(cache).next();
    if (!newest.done) this.answerOpenCalls(cache, newest.value.invocationId);
  }

  /** A dead turn given up: its open calls answered, then an error event by its last agent saying why. */
  abandoned(cache: SessionCache, marker: TurnMarker, why: string): void {
    const { invocationId } = marker;
    this.answerOpenCalls(cache, invocationId);
    let author = marker.agent ?? "user";
    for (const event of this.log.newestFirst(cache)) {
      if (event.invocationId !== invocationId) break;
      if (event.author !== "user") {
        author = event.author;
        break;
      }
    }
    const failure = new BatonError("TURN_NOT_RESUMED", `The turn stopped and was not resumed: ${why}`);
    const event = createEvent({ invocationId, author, ...errorFields(failure) }, OBJECT_EVENTS);
    const written = this.log.write(cache, event);
    if (written.ok) this.feeds.publish(event);
  }
}
