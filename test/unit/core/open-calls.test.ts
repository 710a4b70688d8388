import { describe, expect, it } from "vitest";
import { functionResponsesOf } from "../../../src/core/content.js";
import { createEvent, type Event, type NewEvent } from "../../../src/core/event.js";
import { answersTo, newestFirst, openCalls, unansweredMessage } from "../../../src/core/open-calls.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";

let n = 0;
const env = { ids: { uuid: () => `id-${++n}` }, clock: { now: () => 1_767_225_600_000 + n } };
const event = (fields: Partial<NewEvent>): Event =>
  createEvent({ invocationId: "e-1", author: "root", ...fields }, env);
const calls = (invocationId: string, ...ids: string[]) =>
  event({
    invocationId,
    content: {
      role: "model",
      parts: ids.map((id) => ({ functionCall: { id, name: `tool-${id}`, args: {} } })),
    },
  });
const answers = (...ids: string[]) =>
  event({
    content: {
      role: "user",
      parts: ids.map((id) => ({ functionResponse: { id, name: `tool-${id}`, response: {} } })),
    },
  });

describe("the calls a turn left without a response", () => {
  it("finds the calls of the invocation with no stored response, oldest first, leaving long-running calls out", () => {
    const log = [
      calls("e-0", "old"),
      event({ author: "user", content: { role: "user", parts: [{ text: "go" }] } }),
      calls("e-1", "a", "b"),
      answers("a"),
      { ...calls("e-1", "c", "wait"), longRunningToolIds: ["wait"] },
    ];
    const open = openCalls(newestFirst(log), "e-1");
    expect(open.map((o) => [o.call.id, o.author])).toEqual([
      ["b", "root"],
      ["c", "root"],
    ]);
    // The walk stops at the first event of another invocation: what came before was checked at its end.
    expect(openCalls(newestFirst(log), "e-0")).toEqual([]);
  });

  it("answers them in one event per agent that made them, each response an error naming its tool", () => {
    const open = [
      { call: { id: "a", name: "pay", args: {} }, author: "root" },
      { call: { id: "b", name: "look", args: {} }, author: "helper" },
      { call: { id: "c", name: "pay", args: {} }, author: "root" },
    ];
    const events = answersTo(open, "e-1", unansweredMessage, env);
    expect(events.map((e) => [e.author, e.invocationId, e.content?.role])).toEqual([
      ["root", "e-1", "user"],
      ["helper", "e-1", "user"],
    ]);
    expect(functionResponsesOf(events[0]?.content)).toEqual([
      { id: "a", name: "pay", response: { error: unansweredMessage("pay") } },
      { id: "c", name: "pay", response: { error: unansweredMessage("pay") } },
    ]);
  });

  it("the in-memory store answers a canceled turn's open calls before its TURN_CANCELED event, and a failed turn's at its end", async () => {
    const store = new InMemorySessionStore();
    const key = { appName: "a", userId: "u", sessionId: "s" };
    await store.createSession(key);
    const user = event({ author: "user", content: { role: "user", parts: [{ text: "pay" }] } });
    const { lease } = await store.beginTurn(key, user);
    await store.appendEvent(key, calls("e-1", "p"), { lease });
    await store.cancelTurn(key);
    const canceled = (await store.getSession(key))?.events ?? [];
    expect(
      canceled.map(
        (e) =>
          e.errorCode ??
          functionResponsesOf(e.content)
            .map((r) => r.id)
            .join(),
      ),
    ).toEqual(["", "", "p", "TURN_CANCELED"]);

    const next = event({
      invocationId: "e-2",
      author: "user",
      content: { role: "user", parts: [{ text: "x" }] },
    });
    const second = await store.beginTurn(key, next);
    await store.appendEvent(key, calls("e-2", "q"), { lease: second.lease });
    await store.endTurn(key, second.lease);
    const ended = (await store.getSession(key))?.events ?? [];
    expect(functionResponsesOf(ended.at(-1)?.content)).toEqual([
      { id: "q", name: "tool-q", response: { error: unansweredMessage("tool-q") } },
    ]);
  });
});
