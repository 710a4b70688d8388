import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SessionKey } from "../../../src/core/session.js";
import { DurableObjectSessionStore, sessionObjectName } from "../../../src/session/do-store.js";
import { DEFAULT_LEASE_TTL_MS } from "../../../src/session/lease.js";
import { expectRefusal, freshApp, makeEvent } from "../../contract/fixtures.js";
import { describeSessionStoreContract } from "../../contract/session-store-contract.js";

/** Time passing for a lease is its expiry moving closer: shift it back by `ms` inside the object. */
async function elapse(key: SessionKey, ms: number): Promise<void> {
  await runInDurableObject(env.SESSIONS.getByName(sessionObjectName(key)), (_, state) => {
    state.storage.sql.exec("UPDATE session SET lease_expires_at = lease_expires_at - ? WHERE id = 1", ms);
  });
}

describeSessionStoreContract("DurableObjectSessionStore", () => ({
  store: new DurableObjectSessionStore(env),
  leaseTtlMs: DEFAULT_LEASE_TTL_MS,
  elapse,
}));

describe("DurableObjectSessionStore configuration", () => {
  it("takes the lease length from SESSION_LEASE_TTL_MS", async () => {
    const store = new DurableObjectSessionStore({ ...env, SESSION_LEASE_TTL_MS: "5000" });
    const key = { appName: freshApp(), userId: "u1", sessionId: "s1" };
    await store.createSession(key);
    await store.beginTurn(key, makeEvent({ text: "one" }));
    await elapse(key, 4_000);
    await expectRefusal(store.beginTurn(key, makeEvent({ text: "two" })), "session_busy");
    await elapse(key, 1_000);
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
    await elapse(key, 5_000);
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
