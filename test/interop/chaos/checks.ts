// What must hold of a session after a kill and its restart (issue 42): every message answered exactly once
// and in order, nothing stored twice, no call without its response. Pure: events in, violations out.
import type { Event } from "../../../src/core/event.js";
import { answerText, tagsIn } from "./fake-model.js";

/** A message the run sent to a session, in send order. */
export interface Sent {
  tag: string;
  sentAt: number;
  /** The HTTP status it was answered with, if any answer came before the kill. */
  status?: number;
  /** The refusal's code, for a 4xx. */
  code?: string;
  /** The queued turn a webhook delivery or cron firing became (`GET /turns/:id`). */
  turnId?: string;
}

/** How the session treats messages sent while a turn runs. */
export type Mode = "reject" | "enqueue" | "latest" | "merge";

const textOf = (event: Event) =>
  (event.content?.parts ?? []).flatMap((p) => (p.text === undefined ? [] : [p.text])).join("\n");
const isMessage = (event: Event) => event.author === "user" && tagsIn(textOf(event)).length > 0;

/**
 * The violations of one session's stored events. `delivered(sent)` says whether a message surely reached
 * the session (answered, or sent long enough before the kill): such a message must be stored, unless a
 * newer one replaced it (`latest`) or the session refused it (`reject`'s 409).
 */
export function checkSession(
  events: readonly Event[],
  sent: readonly Sent[],
  mode: Mode,
  delivered: (message: Sent) => boolean,
): string[] {
  const violations: string[] = [];
  const order = new Map(sent.map((message, i) => [message.tag, i]));
  const ids = new Set<string>();
  for (const event of events) {
    if (ids.has(event.id)) violations.push(`event ${event.id} is stored twice`);
    ids.add(event.id);
  }
  const messages = events.flatMap((event, at) => (isMessage(event) ? [{ event, at }] : []));
  const storedTags = new Map<string, number>();
  let last = -1;
  for (const { event, at } of messages) {
    const tags = tagsIn(textOf(event));
    for (const tag of tags) {
      storedTags.set(tag, (storedTags.get(tag) ?? 0) + 1);
      const index = order.get(tag);
      if (index === undefined) violations.push(`${tag} is stored but was never sent`);
      else if (index < last) violations.push(`${tag} is stored after a message sent later`);
      else last = index;
    }
    violations.push(...checkAnswer(events, at, tags));
  }
  for (const [tag, count] of storedTags)
    if (count > 1) violations.push(`${tag} is stored in ${count} user events`);
  for (const message of sent) {
    if (storedTags.has(message.tag) || !delivered(message)) continue;
    if (message.status === 409 && (mode === "reject" || message.code === "message_replaced")) continue;
    const newer = sent.slice((order.get(message.tag) ?? 0) + 1).some((m) => storedTags.has(m.tag));
    if (mode === "latest" && newer) continue;
    violations.push(`${message.tag} reached the session (${message.status ?? "sent"}) but is not stored`);
  }
  violations.push(...openCalls(events));
  return violations;
}

/**
 * The user event at `at` (naming `tags`) is answered exactly once: the events up to the next message are
 * all of its invocation, none is an error, and exactly one is the final text answer naming every tag.
 */
function checkAnswer(events: readonly Event[], at: number, tags: readonly string[]): string[] {
  const user = events[at];
  if (!user) return [];
  const own: Event[] = [];
  const violations: string[] = [];
  for (const event of events.slice(at + 1)) {
    if (isMessage(event)) break;
    // A compaction (no content, its summary in `actions`) is the session's, not a turn's answer.
    if (event.actions.compaction !== undefined) continue;
    if (event.invocationId !== user.invocationId) {
      violations.push(`${tags.join("+")}: an event of another turn comes before its answer ends`);
      break;
    }
    own.push(event);
  }
  const label = tags.join("+");
  for (const event of own)
    if (event.errorCode !== undefined)
      violations.push(`${label} ends with ${event.errorCode}: ${event.errorMessage}`);
  const expected = answerText(tags);
  const answers = own.filter(
    (e) => e.author !== "user" && !e.partial && textOf(e) !== "" && textOf(e) !== "summary",
  );
  const right = answers.filter((e) => textOf(e) === expected);
  if (right.length === 0) violations.push(`${label} is not answered`);
  if (right.length > 1) violations.push(`${label} is answered ${right.length} times`);
  if (answers.length > right.length) violations.push(`${label} has an answer that is not its own`);
  return violations;
}

/** Every function call that has no response stored after it (long-running calls aside). */
function openCalls(events: readonly Event[]): string[] {
  const answered = new Set<string>();
  for (const event of events)
    for (const part of event.content?.parts ?? [])
      if (part.functionResponse?.id) answered.add(part.functionResponse.id);
  return events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) => {
      const call = part.functionCall;
      if (!call?.id || answered.has(call.id) || event.longRunningToolIds?.includes(call.id)) return [];
      return [`the call ${call.name} (${call.id}) has no response`];
    }),
  );
}
