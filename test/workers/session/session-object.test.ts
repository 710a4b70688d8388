import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { SessionKey } from "../../../src/core/session.js";
import { APP_SQL_SCHEMA } from "../../../src/objects/app-object.js";
import type { SessionObject } from "../../../src/objects/session-object.js";
import { SESSION_SQL_SCHEMA } from "../../../src/objects/session-schema.js";
import { USER_SQL_SCHEMA } from "../../../src/objects/user-object.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { sessionObjectName } from "../../../src/storage/object-names.js";
import { unwrap } from "../../../src/storage/rpc-result.js";
import { migrate, schemaVersion } from "../../../src/storage/sql.js";
import { expectRefusal, freshApp, idsOf, makeEvent } from "../../contract/fixtures.js";
import { asListed, traceOf } from "../../contract/trace-cases.js";
import { newLifetime } from "../support/turn-control.js";

const newKey = (): SessionKey => ({ appName: freshApp(), userId: "u1", sessionId: "s1" });
const stubOf = (key: SessionKey) => env.SESSIONS.getByName(sessionObjectName(key));

describe("SessionObject", () => {
  it("writes an event and its state delta in one transaction: a failure in between leaves neither", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession({ ...key, state: { a: 0 } });
    await runInDurableObject(stubOf(key), (instance: SessionObject) => {
      // Serialises once for the event row, then throws when the same value is written to the state table.
      let serialised = 0;
      const flaky = {
        toJSON: () => {
          if (++serialised > 1) throw new Error("disk on fire");
          return 1;
        },
      };
      const event = makeEvent({ stateDelta: { a: flaky } });
      expect(() => instance.append({ event, leaseTtlMs: 1_000 })).toThrow("disk on fire");
      expect(serialised).toBe(2);
    });
    const session = await store.getSession(key);
    expect(session?.events).toEqual([]);
    expect(session?.state).toEqual({ a: 0 });
  });

  it("reads the last n events of a 10,000-event log without reading the rest", async () => {
    const key = newKey();
    const events = Array.from({ length: 10_000 }, (_, i) => makeEvent({ text: `m${i}` }));
    const { ids, rowsRead } = await runInDurableObject(stubOf(key), (instance: SessionObject, state) => {
      // SAFETY (below): `dropCache` is the object's protected hook for a fresh read, which this test wants.
      instance.create(key, {});
      for (const event of events) instance.append({ event, leaseTtlMs: 1_000 });
      // A cold read, as by a new lifetime of the object: the appends above are in its cache.
      (instance as unknown as { dropCache(): void }).dropCache();
      const exec = vi.spyOn(state.storage.sql, "exec");
      const session = unwrap(instance.get({ numRecentEvents: 50 }));
      const cursors = exec.mock.results.flatMap((r) => (r.type === "return" ? [r.value] : []));
      exec.mockRestore();
      return {
        ids: idsOf(session?.events ?? []),
        rowsRead: cursors.reduce((sum, cursor) => sum + cursor.rowsRead, 0),
      };
    });
    expect(ids).toEqual(idsOf(events.slice(-50)));
    // 50 events, the session row and the (empty) state table: nowhere near the 10,000 stored.
    expect(rowsRead).toBeGreaterThanOrEqual(50);
    expect(rowsRead).toBeLessThan(60);
  });

  it("stores a turn's trace sent as its JSON and one sent as an object alike, and releases the lease with either", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession(key);
    const stub = stubOf(key);
    const first = await store.beginTurn(key, makeEvent({ text: "as JSON" }));
    const asJson = traceOf("e-json");
    await stub.endTurn(first.lease, { invocationId: asJson.invocationId, json: JSON.stringify(asJson) });
    const second = await store.beginTurn(key, makeEvent({ text: "as an object" }));
    await stub.endTurn(second.lease, traceOf("e-object"));
    expect(await store.listTraces(key)).toEqual([asListed(asJson), asListed(traceOf("e-object"))]);
    // Both leases were released: a third turn begins.
    await expect(store.beginTurn(key, makeEvent({ text: "free" }))).resolves.toBeDefined();
  });

  it("keeps every appended event and the lease when the object starts a new lifetime mid-turn", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession(key);
    const userEvent = makeEvent({ text: "hi" });
    const { lease } = await store.beginTurn(key, userEvent);
    const replies = [makeEvent({ author: "root", text: "a" }), makeEvent({ author: "root", text: "b" })];
    for (const reply of replies) await store.appendEvent(key, reply, { lease });
    await newLifetime(key);
    const after = await store.getSession(key);
    expect(idsOf(after?.events ?? [])).toEqual(idsOf([userEvent, ...replies]));
    // The crashed turn's lease outlives the isolate until it lapses.
    await expectRefusal(store.beginTurn(key, makeEvent({ text: "again" })), "session_busy");
    await expect(
      store.appendEvent(key, makeEvent({ author: "root", text: "c" }), { lease }),
    ).resolves.toBeDefined();
  });
});

describe("schema versions", () => {
  it("stores the schema version in every kind of object", async () => {
    const app = freshApp();
    const versions = await Promise.all([
      runInDurableObject(env.SESSIONS.getByName(sessionObjectName(newKey())), (_, s) =>
        schemaVersion(s.storage.sql),
      ),
      runInDurableObject(env.USERS.getByName(JSON.stringify([app, "u1"])), (_, s) =>
        schemaVersion(s.storage.sql),
      ),
      runInDurableObject(env.APPS.getByName(JSON.stringify([app])), (_, s) => schemaVersion(s.storage.sql)),
    ]);
    expect(versions).toEqual([SESSION_SQL_SCHEMA.length, USER_SQL_SCHEMA.length, APP_SQL_SCHEMA.length]);
  });

  it("runs only the steps past the stored version, and refuses a version newer than the code", async () => {
    const stub = env.APPS.getByName(JSON.stringify([freshApp()]));
    await runInDurableObject(stub, (_, { storage }) => {
      const next = [...APP_SQL_SCHEMA, "CREATE TABLE extra (x INTEGER); INSERT INTO extra (x) VALUES (1);"];
      migrate(storage, next);
      migrate(storage, next);
      expect(schemaVersion(storage.sql)).toBe(APP_SQL_SCHEMA.length + 1);
      expect(storage.sql.exec("SELECT count(*) AS n FROM extra").one().n).toBe(1);
      expect(() => migrate(storage, APP_SQL_SCHEMA)).toThrow(/newer than this code/);
    });
  });

  it("lays the schema down again after a session is deleted", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = newKey();
    await store.createSession(key);
    await store.deleteSession(key);
    const version = await runInDurableObject(stubOf(key), (_, s) => schemaVersion(s.storage.sql));
    expect(version).toBe(SESSION_SQL_SCHEMA.length);
  });
});
