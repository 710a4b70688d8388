import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { helloWorker as setup } from "../support/hello-worker.js";
import { expectJson, runBody, sseEvents } from "../support/http.js";

const textsOf = (events: readonly Event[]) => events.map((e) => e.content?.parts?.[0]?.text);

describe("ADK HTTP API over Durable Object sessions: running turns", () => {
  it("answers /run with the turn's events as a JSON array and stores them after the user event", async () => {
    const { call, sessions, app, user, session, fake } = setup();
    await sessions.create({ sessionId: session });
    const events = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "hi") }),
      200,
    );
    expect(events.map((e) => e.author)).toEqual(["root"]);
    expect(textsOf(events)).toEqual(["hello-model answers: hi"]);
    const stored = await sessions.eventsOf(session);
    expect(stored.map((e) => e.author)).toEqual(["user", "root"]);
    expect(stored[1]).toEqual(events[0]);
    expect(stored.every((e) => e.invocationId === events[0]?.invocationId)).toBe(true);
    expect((await fake.calls()).calls).toMatchObject([{ model: "hello-model", stream: false }]);
  });

  it("streams one data: frame per event on /run_sse, partials included with streaming, and stores only the rest", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: session });
    const res = await call("/run_sse", {
      method: "POST",
      json: runBody(app, user, session, "hi", { streaming: true }),
    });
    expect(res.status).toBe(200);
    const events = await sseEvents(res);
    expect(events.map((e) => [e.partial ?? false, e.content?.parts?.[0]?.text])).toEqual([
      [true, "hello"],
      [true, "-model answers: hi"],
      [false, "hello-model answers: hi"],
    ]);
    const stored = await sessions.eventsOf(session);
    expect(stored.map((e) => e.author)).toEqual(["user", "root"]);
    expect(stored.some((e) => e.partial)).toBe(false);
    expect(stored[1]).toEqual(events[2]);
  });

  it("sends only complete events on /run_sse without streaming", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: session });
    const events = await sseEvents(
      await call("/run_sse", { method: "POST", json: runBody(app, user, session, "hi") }),
    );
    expect(events.map((e) => [e.partial, e.content?.parts?.[0]?.text])).toEqual([
      [undefined, "hello-model answers: hi"],
    ]);
  });

  it("gives the same turn for a camelCase body and a snake_case body", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: `${session}-camel` });
    await sessions.create({ sessionId: `${session}-snake` });
    const camel = runBody(app, user, `${session}-camel`, "hi", {
      stateDelta: { mood: "ok" },
      customMetadata: { trace: "c1" },
    });
    const snake = {
      app_name: app,
      user_id: user,
      session_id: `${session}-snake`,
      new_message: { role: "user", parts: [{ text: "hi" }] },
      state_delta: { mood: "ok" },
      custom_metadata: { trace: "c1" },
    };
    const shape = (events: readonly Event[]) =>
      events.map((e) => ({
        author: e.author,
        content: e.content,
        actions: e.actions,
        meta: e.customMetadata,
      }));
    const camelEvents = await expectJson<Event[]>(call("/run", { method: "POST", json: camel }), 200);
    const snakeEvents = await expectJson<Event[]>(call("/run", { method: "POST", json: snake }), 200);
    expect(shape(snakeEvents)).toEqual(shape(camelEvents));
    const [camelStored, snakeStored] = [
      await sessions.get(`${session}-camel`),
      await sessions.get(`${session}-snake`),
    ];
    expect(shape(snakeStored.events)).toEqual(shape(camelStored.events));
    expect(snakeStored.state).toEqual({ mood: "ok" });
    expect(snakeStored.events[0]?.customMetadata).toEqual({ trace: "c1" });
  });
});
