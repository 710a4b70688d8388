import { type FunctionCall, functionCallsOf, functionResponsesOf, type Part } from "./content.js";
import { createEvent, type Event, type EventEnv } from "./event.js";

/** The function response of an interrupted call of a tool that is not `idempotent` (decision 028). */
export const interruptedMessage = (tool: string): string =>
  `The call of ${tool} was interrupted before it answered (the turn stopped while it ran). It was not ` +
  "run again, since running it twice could repeat its effect; it may or may not have taken effect.";

/** The response the store gives a call its turn left unanswered when the turn ended (decision 047). */
export const unansweredMessage = (tool: string): string =>
  `The call of ${tool} never answered: its turn ended first (it was stopped, or it failed). It may or ` +
  "may not have taken effect.";

/** A log's events from the newest back. */
export function* newestFirst(events: readonly Event[]): Generator<Event> {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event) yield event;
  }
}

/** A call without a stored response, and the agent that made it. */
export interface OpenCall {
  call: FunctionCall;
  author: string;
}

/**
 * The calls of `invocationId` that have no stored response, oldest first, read from the session's events
 * newest first up to the first event of another invocation (a turn's events are the newest ones while it
 * runs and when it ends). Long-running calls, which wait for their answer from outside, and partial
 * events are left out: no provider takes a history with a call and no response after it.
 */
export function openCalls(newestFirst: Iterable<Event>, invocationId: string): OpenCall[] {
  const answered = new Set<string>();
  const open: OpenCall[] = [];
  for (const event of newestFirst) {
    if (event.invocationId !== invocationId) break;
    if (event.partial) continue;
    for (const response of functionResponsesOf(event.content))
      if (response.id !== undefined) answered.add(response.id);
    const waiting = event.longRunningToolIds ?? [];
    const calls = functionCallsOf(event.content);
    for (let i = calls.length - 1; i >= 0; i--) {
      const call = calls[i];
      if (call?.id === undefined || answered.has(call.id) || waiting.includes(call.id)) continue;
      open.push({ call, author: event.author });
    }
  }
  return open.reverse();
}

/**
 * The events that answer `open`: one per agent that made calls, each holding an error response per call
 * (`message` names the tool), in the invocation, as a tool's response event is.
 */
export function answersTo(
  open: readonly OpenCall[],
  invocationId: string,
  message: (tool: string) => string,
  env: EventEnv,
): Event[] {
  const byAuthor = new Map<string, Part[]>();
  for (const { call, author } of open) {
    const parts = byAuthor.get(author) ?? [];
    const id = call.id === undefined ? {} : { id: call.id };
    parts.push({ functionResponse: { ...id, name: call.name, response: { error: message(call.name) } } });
    byAuthor.set(author, parts);
  }
  return [...byAuthor].map(([author, parts]) =>
    createEvent({ invocationId, author, content: { role: "user", parts } }, env),
  );
}
