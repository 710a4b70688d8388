import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { storedBytes } from "../../../src/core/stored-size.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { DEFAULT_LEASE_TTL_MS } from "../../../src/session/lease.js";
import { expectRefusal, freshApp, makeEvent } from "../../contract/fixtures.js";
import { describeSessionStoreContract } from "../../contract/session-store-contract.js";
import { elapseLease } from "../support/turn-control.js";

describeSessionStoreContract("DurableObjectSessionStore", () => ({
  store: new DurableObjectSessionStore(env),
  leaseTtlMs: DEFAULT_LEASE_TTL_MS,
  elapse: elapseLease,
}));

describe("DurableObjectSessionStore configuration", () => {
  it("takes the lease length from SESSION_LEASE_TTL_MS", async () => {
    const store = new DurableObjectSessionStore({ ...env, SESSION_LEASE_TTL_MS: "5000" });
    const key = { appName: freshApp(), userId: "u1", sessionId: "s1" };
    await store.createSession(key);
    await store.beginTurn(key, makeEvent({ text: "one" }));
    await elapseLease(key, 4_000);
    await expectRefusal(store.beginTurn(key, makeEvent({ text: "two" })), "session_busy");
    await elapseLease(key, 1_000);
    await expect(store.beginTurn(key, makeEvent({ text: "three" }))).resolves.toBeDefined();
  });

  it("lets the constructor option win over SESSION_LEASE_TTL_MS", async () => {
    const store = new DurableObjectSessionStore(
      { ...env, SESSION_LEASE_TTL_MS: "5000" },
      { leaseTtlMs: 60_000 },
    );
    const key = { appName: freshApp(), userId: "u1", sessionId: "s1" };
    await store.createSession(key);
    await store.beginTurn(key, makeEvent({ text: "one" }));
    await elapseLease(key, 5_000);
    await expectRefusal(store.beginTurn(key, makeEvent({ text: "two" })), "session_busy");
  });

  it("addresses a session's objects by an unambiguous name", async () => {
    const store = new DurableObjectSessionStore(env);
    const app = freshApp();
    // With naive joining these two keys would collide as "a:b:c".
    const one = { appName: app, userId: "a:b", sessionId: "c" };
    const two = { appName: app, userId: "a", sessionId: "b:c" };
    await store.createSession({ ...one, state: { which: 1 } });
    await store.createSession({ ...two, state: { which: 2 } });
    expect((await store.getSession(one))?.state).toEqual({ which: 1 });
    expect((await store.getSession(two))?.state).toEqual({ which: 2 });
  });
});

describe("DurableObjectSessionStore appends", () => {
  it("hands back the stored event frozen, with the row's UTF-8 size the object counted for the trace", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = { appName: freshApp(), userId: "u1", sessionId: "s1" };
    await store.createSession(key);
    const { lease } = await store.beginTurn(key, makeEvent({ text: "one" }));
    const stored = await store.appendEvent(key, makeEvent({ text: "smörgåsbord ✓", author: "agent" }), {
      lease,
    });
    expect(Object.isFrozen(stored)).toBe(true);
    const measured = new TextEncoder().encode(JSON.stringify(stored)).byteLength;
    expect(storedBytes(stored, () => -1)).toBe(measured); // the object's count: `measure` is never asked
  });
});
