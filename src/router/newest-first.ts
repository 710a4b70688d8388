import type { Event } from "../core/event.js";

/**
 * The session's events newest first, leaving out rewound ones (PYX `_rewind_events`): a marker with
 * `actions.rewindBeforeInvocationId = X` drops itself and every event from the first event of
 * invocation X up to it. Lazy, so a caller that stops early never reads the older events.
 */
export function* newestFirst(events: readonly Event[]): Generator<Event, void, undefined> {
  let i = events.length - 1;
  while (i >= 0) {
    const event = events[i];
    const rewound = event?.actions.rewindBeforeInvocationId;
    if (rewound) {
      i = firstEventOf(events, rewound, i - 1) - 1;
      continue;
    }
    if (event) yield event;
    i -= 1;
  }
}

/**
 * Index of the first event of invocation `invocationId` at or before `from`, or `from + 1` when there is
 * none (then only the marker is dropped, as in ADK).
 * Assumes an invocation's events are contiguous: a session runs one turn at a time.
 */
function firstEventOf(events: readonly Event[], invocationId: string, from: number): number {
  let k = from;
  while (k >= 0 && events[k]?.invocationId !== invocationId) k -= 1;
  if (k < 0) return from + 1;
  while (k > 0 && events[k - 1]?.invocationId === invocationId) k -= 1;
  return k;
}

/**
 * The session's events oldest first without the rewound ones (what `newestFirst` walks, reversed). A
 * session with no rewind marker, nearly every one, is returned as it is, with no copy.
 */
export function withoutRewound(events: readonly Event[]): readonly Event[] {
  let rewinds = false;
  for (let i = 0; i < events.length && !rewinds; i++)
    rewinds = Boolean(events[i]?.actions.rewindBeforeInvocationId);
  return rewinds ? [...newestFirst(events)].reverse() : events;
}
