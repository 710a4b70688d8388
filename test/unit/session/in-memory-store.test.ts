import { describe, expect, it } from "vitest";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { describeSessionStoreContract } from "../../contract/session-store-contract.js";
import { describeTaskStoreContract } from "../../contract/task-store-contract.js";

const LEASE_TTL_MS = 60_000;

describeSessionStoreContract("InMemorySessionStore", () => {
  let now = 1_767_225_600_000;
  const store = new InMemorySessionStore({
    clock: { now: () => now },
    leaseTtlMs: LEASE_TTL_MS,
    traces: true,
  });
  return {
    store,
    leaseTtlMs: LEASE_TTL_MS,
    elapse: async (_key, ms) => {
      now += ms;
    },
  };
});

describe("InMemorySessionStore", () => {
  const key = { appName: "app", userId: "u1", sessionId: "s1" };
  const userEvent = {
    id: "ev-1",
    invocationId: "e-1",
    author: "user",
    timestamp: 1,
    actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
  };

  it("hands out stored events frozen, so changing one throws and the stored one stays as it was", async () => {
    const store = new InMemorySessionStore();
    await store.createSession(key);
    const content = { role: "user", parts: [{ text: "hi" }] };
    const returned = await store.appendEvent(key, { ...userEvent, content });
    expect(() => {
      returned.author = "someone else";
    }).toThrow(TypeError);
    expect(() => returned.content?.parts?.push({ text: "more" })).toThrow(TypeError);
    const read = await store.getSession(key);
    expect(() => {
      if (read?.events[0]) read.events[0].actions.stateDelta.k = 1;
    }).toThrow(TypeError);
    const again = await store.getSession(key);
    expect(again?.events).toEqual([{ ...userEvent, content: { role: "user", parts: [{ text: "hi" }] } }]);
  });

  it("shares one stored event between reads and turns instead of copying the session per read", async () => {
    const store = new InMemorySessionStore();
    await store.createSession(key);
    const stored = await store.appendEvent(key, userEvent);
    const [first, second] = [await store.getSession(key), await store.getSession(key)];
    const turn = await store.beginTurn(key, { ...userEvent, id: "ev-2" });
    expect(first?.events[0]).toBe(stored);
    expect(second?.events[0]).toBe(stored);
    expect(turn.session.events[0]).toBe(stored);
    // Each read still gets an array and a state map of its own.
    expect(first?.events).not.toBe(second?.events);
    expect(first?.state).not.toBe(second?.state);
  });

  it("keeps one shared actions object for events that only speak, and its own for any that acts", async () => {
    const store = new InMemorySessionStore();
    await store.createSession(key);
    const first = await store.appendEvent(key, userEvent);
    const second = await store.appendEvent(key, { ...userEvent, id: "ev-2" });
    const acting = await store.appendEvent(key, {
      ...userEvent,
      id: "ev-3",
      actions: { ...userEvent.actions, transferToAgent: "billing" },
    });
    const writing = await store.appendEvent(key, {
      ...userEvent,
      id: "ev-4",
      actions: { ...userEvent.actions, stateDelta: { k: 1 } },
    });
    expect(second.actions).toBe(first.actions);
    expect(acting.actions).not.toBe(first.actions);
    expect(writing.actions).not.toBe(first.actions);
    expect(acting.actions).toEqual({ ...userEvent.actions, transferToAgent: "billing" });
    expect(writing.actions.stateDelta).toEqual({ k: 1 });
    expect(JSON.parse(JSON.stringify(first))).toEqual(userEvent);
    const read = await store.getSession(key);
    expect(read?.state).toEqual({ k: 1 });
  });

  it("freezes the initial state's values, copied from the caller's, who can still change their own", async () => {
    const store = new InMemorySessionStore();
    const initial = { list: [1] };
    await store.createSession({ ...key, state: initial });
    initial.list.push(2);
    const read = await store.getSession(key);
    expect(read?.state).toEqual({ list: [1] });
    expect(Object.isFrozen(read?.state.list)).toBe(true);
  });

  it("takes session ids and lease tokens from the injected id source", async () => {
    let n = 0;
    const store = new InMemorySessionStore({ ids: { uuid: () => `id-${++n}` } });
    const created = await store.createSession({ appName: "app", userId: "u1" });
    const turn = await store.beginTurn({ ...key, sessionId: created.id }, userEvent);
    expect([created.id, turn.lease]).toEqual(["id-1", "id-2"]);
  });

  it("stamps a new session with the injected clock, in float seconds", async () => {
    const store = new InMemorySessionStore({ clock: { now: () => 1_767_225_600_500 } });
    expect((await store.createSession(key)).lastUpdateTime).toBe(1_767_225_600.5);
  });

  it("lets a lease live 120 s by default", async () => {
    let now = 0;
    const store = new InMemorySessionStore({ clock: { now: () => now } });
    await store.createSession(key);
    await store.beginTurn(key, userEvent);
    now = 119_999;
    await expect(store.beginTurn(key, { ...userEvent, id: "ev-2" })).rejects.toMatchObject({
      code: "session_busy",
    });
    now = 120_000;
    await expect(store.beginTurn(key, { ...userEvent, id: "ev-3" })).resolves.toBeDefined();
  });
});

describeTaskStoreContract("InMemorySessionStore", () => new InMemorySessionStore());
