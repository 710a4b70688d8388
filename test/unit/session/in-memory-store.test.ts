import { describe, expect, it } from "vitest";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { describeSessionStoreContract } from "../../contract/session-store-contract.js";
import { describeTaskStoreContract } from "../../contract/task-store-contract.js";

const LEASE_TTL_MS = 60_000;

describeSessionStoreContract("InMemorySessionStore", () => {
  let now = 1_767_225_600_000;
  const store = new InMemorySessionStore({ clock: { now: () => now }, leaseTtlMs: LEASE_TTL_MS });
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
