import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { SessionKey } from "../../../src/core/session.js";
import type { SessionObject } from "../../../src/objects/session-object.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { sessionObjectName } from "../../../src/storage/object-names.js";
import { unwrap } from "../../../src/storage/rpc-result.js";
import { freshApp, idsOf, makeEvent } from "../../contract/fixtures.js";
import { newLifetime } from "../support/turn-control.js";

const newKey = (): SessionKey => ({ appName: freshApp(), userId: "u1", sessionId: "s1" });
const stubOf = (key: SessionKey) => env.SESSIONS.getByName(sessionObjectName(key));

/** Event rows SQL read while `read` ran inside the object. */
function rowsReadBy(state: DurableObjectState, read: () => unknown): number {
  const exec = vi.spyOn(state.storage.sql, "exec");
  try {
    read();
    const cursors = exec.mock.results.flatMap((r) => (r.type === "return" ? [r.value] : []));
    return cursors.reduce((sum, cursor) => sum + cursor.rowsRead, 0);
  } finally {
    exec.mockRestore();
  }
}

/** Ends the object's lifetime: the next call meets an object with nothing in memory. */
const restart = newLifetime;

describe("SessionObject's cache of its session", () => {
  it("reads each stored row once per lifetime: a second read of the same events reads no rows", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession({
      ...key,
      events: Array.from({ length: 20 }, (_, i) => makeEvent({ text: `${i}` })),
    });
    await restart(key);
    const [first, second] = await runInDurableObject(stubOf(key), (instance: SessionObject, state) => [
      rowsReadBy(state, () => unwrap(instance.get())),
      rowsReadBy(state, () => unwrap(instance.get({ numRecentEvents: 5 }))),
    ]);
    expect(first).toBeGreaterThanOrEqual(20);
    expect(second).toBe(0);
  });

  it("sees an append in the next read of an object that had the session cached", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession({ ...key, state: { n: 1 } });
    expect((await store.getSession(key))?.events).toEqual([]);
    const event = makeEvent({ text: "after the read", stateDelta: { n: 2, added: { deep: true } } });
    await store.appendEvent(key, event);
    const read = await store.getSession(key);
    expect(idsOf(read?.events ?? [])).toEqual([event.id]);
    expect(read?.state).toEqual({ n: 2, added: { deep: true } });
    expect((await store.getSession(key, { numRecentEvents: 1 }))?.events).toEqual([event]);
  });

  it("sees a turn's state delta and lease in a cached object: a second turn is busy, the delta is read", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession(key);
    await store.getSession(key);
    const { lease } = await store.beginTurn(key, makeEvent({ text: "go", stateDelta: { mood: "curious" } }));
    expect((await store.getSession(key))?.state).toEqual({ mood: "curious" });
    await expect(store.beginTurn(key, makeEvent({ text: "again" }))).rejects.toMatchObject({
      code: "session_busy",
    });
    await store.endTurn(key, lease);
    const next = await store.beginTurn(key, makeEvent({ text: "now", stateDelta: { mood: "calm" } }));
    expect(next.session.state).toEqual({ mood: "calm" });
    expect(next.session.events).toHaveLength(2);
  });

  it("serves a session deleted and created again with the new one's events and state, not the cached old ones", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession({ ...key, state: { old: true } });
    await store.appendEvent(key, makeEvent({ text: "old", stateDelta: { gone: 1 } }));
    await store.getSession(key);
    await store.deleteSession(key);
    expect(await store.getSession(key)).toBeNull();
    await store.createSession({ ...key, state: { fresh: true } });
    const read = await store.getSession(key);
    expect(read?.events).toEqual([]);
    expect(read?.state).toEqual({ fresh: true });
  });

  it("refuses a row corrupted in SQL on the first read of a new lifetime, with zod's check", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession(key);
    await store.appendEvent(key, makeEvent({ text: "fine" }));
    await runInDurableObject(stubOf(key), (_, state) => {
      state.storage.sql.exec(`UPDATE events SET json = '{"id": 7, "author": null}'`);
    });
    await restart(key);
    await expect(store.getSession(key)).rejects.toMatchObject({
      code: "storage_error",
      message: expect.stringMatching(/invalid/i),
    });
  });

  it("refuses an append to a session whose row was corrupted in SQL, with zod's check, and stores nothing", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession(key);
    await runInDurableObject(stubOf(key), (_, state) => {
      state.storage.sql.exec(`UPDATE session SET last_update_time = 'soon'`);
    });
    await restart(key);
    await expect(store.appendEvent(key, makeEvent({ text: "lost?" }))).rejects.toMatchObject({
      code: "storage_error",
      message: expect.stringMatching(/last_update_time/),
    });
    const rows = await runInDurableObject(stubOf(key), (_, state) =>
      state.storage.sql.exec("SELECT COUNT(*) AS n FROM events").one(),
    );
    expect(rows).toEqual({ n: 0 });
  });

  it("grows a cache that holds only the newest events backwards when a larger window is asked for", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    const events = Array.from({ length: 30 }, (_, i) => makeEvent({ text: `${i}` }));
    await store.createSession({ ...key, events });
    await restart(key);
    expect(idsOf((await store.getSession(key, { numRecentEvents: 10 }))?.events ?? [])).toEqual(
      idsOf(events.slice(-10)),
    );
    const appended = makeEvent({ text: "newest" });
    await store.appendEvent(key, appended);
    expect(idsOf((await store.getSession(key, { numRecentEvents: 15 }))?.events ?? [])).toEqual(
      idsOf([...events.slice(-14), appended]),
    );
    expect(idsOf((await store.getSession(key))?.events ?? [])).toEqual(idsOf([...events, appended]));
    const after = events[25]?.timestamp ?? 0;
    expect(idsOf((await store.getSession(key, { afterTimestamp: after }))?.events ?? [])).toEqual(
      idsOf([...events.slice(25), appended]),
    );
  });

  it("reads a time window over a partly cached log from SQL, whatever the cache holds", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    const events = Array.from({ length: 12 }, (_, i) => makeEvent({ text: `${i}` }));
    await store.createSession({ ...key, events });
    await restart(key);
    await store.getSession(key, { numRecentEvents: 3 });
    const after = events[4]?.timestamp ?? 0;
    const read = await store.getSession(key, { afterTimestamp: after, numRecentEvents: 20 });
    expect(idsOf(read?.events ?? [])).toEqual(idsOf(events.slice(4)));
  });
});
