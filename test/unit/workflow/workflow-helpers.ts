import type { Content } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import type { Runner } from "../../../src/runner/runner.js";
import { collect } from "../support/run-helpers.js";

/** The events a test reads: no running marks (content-less `agentState: {status: "running"}` events). */
export const visible = (events: readonly Event[]): Event[] =>
  events.filter((e) => !(e.actions.agentState?.status === "running" && e.content === undefined));

/** One line per event: author, node path, output, text or call, route. */
export const lines = (events: readonly Event[]): string[] =>
  visible(events).map((e) => {
    const part = e.content?.parts?.[0];
    const what = part?.text ?? part?.functionCall?.name ?? part?.functionResponse?.name ?? "";
    const out = e.output === undefined ? "" : ` => ${JSON.stringify(e.output)}`;
    const route = e.actions.route === undefined ? "" : ` route=${JSON.stringify(e.actions.route)}`;
    const error = e.errorCode === undefined ? "" : ` !${e.errorCode}`;
    return `${e.author}@${e.nodeInfo?.path ?? "-"}${what ? ` ${what}` : ""}${out}${route}${error}`;
  });

/** The interrupt id of the newest `adk_request_input` call. */
export const interruptOf = (events: readonly Event[]): string => {
  const id = events.findLast((e) => (e.longRunningToolIds?.length ?? 0) > 0)?.longRunningToolIds?.[0];
  if (id === undefined) throw new Error("no interrupt among the events");
  return id;
};

export const answer = (id: string, response: Record<string, unknown>): Content => ({
  role: "user",
  parts: [{ functionResponse: { id, name: "adk_request_input", response } }],
});

/** One turn whose message is `content` (a function response, a text). */
export const send = (runner: Runner, content: Content): Promise<Event[]> =>
  collect(runner, { userId: "u", sessionId: "s", newMessage: content });
