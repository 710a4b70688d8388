import { describe, expect, it } from "vitest";
import { createEvent } from "../../../src/core/event.js";
import { SessionsService } from "../../../src/runner/sessions-service.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { testServices } from "../support/run-helpers.js";

function service() {
  const services = testServices();
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  return { sessions: new SessionsService(store, services), services, store };
}

const key = (sessionId: string) => ({ appName: "app", userId: "u1", sessionId });

describe("SessionsService", () => {
  it("creates a session with its seed events in one step", async () => {
    const { sessions, services } = service();
    const seed = createEvent(
      { invocationId: "e-1", author: "user", actions: { stateDelta: { a: 2 } } },
      services,
    );
    const created = await sessions.create({ ...key("s1"), state: { a: 1 }, events: [seed] });
    expect(created.events.map((e) => e.id)).toEqual([seed.id]);
    expect((await sessions.get(key("s1"))).session.state).toEqual({ a: 2 });
  });

  it("leaves no session behind when a seed is refused", async () => {
    const { sessions, services } = service();
    const seed = createEvent({ invocationId: "e-1", author: "user" }, services);
    await expect(sessions.create({ ...key("s2"), events: [seed, seed] })).rejects.toMatchObject({
      code: "invalid_request",
    });
    await expect(sessions.get(key("s2"))).rejects.toMatchObject({ code: "session_not_found" });
    expect(await sessions.list("app", "u1")).toEqual({ sessions: [] });
  });

  it("records a state patch as a user event in a fresh p- invocation holding only the delta", async () => {
    const { sessions } = service();
    await sessions.create(key("s3"));
    const patched = await sessions.patchState(key("s3"), { "user:tier": "gold", n: 1 });
    expect(patched.state).toEqual({ "user:tier": "gold", n: 1 });
    const [event] = patched.events;
    expect(event).toMatchObject({ author: "user", actions: { stateDelta: { "user:tier": "gold", n: 1 } } });
    expect(event?.invocationId).toMatch(/^p-[0-9a-f-]{36}$/);
    expect(event?.content).toBeUndefined();
  });

  it("refuses to patch or read a session that does not exist, with session_not_found", async () => {
    const { sessions, store } = service();
    await expect(sessions.patchState(key("nope"), { a: 1 })).rejects.toMatchObject({
      code: "session_not_found",
    });
    await expect(sessions.get(key("nope"))).rejects.toMatchObject({ code: "session_not_found" });
    expect(await store.getSession(key("nope"))).toBeNull();
  });
});
