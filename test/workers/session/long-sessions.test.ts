import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { EventWindow } from "../../../src/core/session-store.js";
import type { SessionObject } from "../../../src/objects/session-object.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { unwrap } from "../../../src/storage/rpc-result.js";
import { freshApp, idsOf, makeEvent } from "../../contract/fixtures.js";
import { sessionStub } from "../support/turn-control.js";

const LOG = 20_000;

/** A cold read of `window` in the session's object: the events it returned and the SQL rows it read. */
function coldRead(instance: SessionObject, state: DurableObjectState, window: EventWindow) {
  // SAFETY: `dropCache` is the object's protected hook for a fresh read, which this test wants.
  (instance as unknown as { dropCache(): void }).dropCache();
  const exec = vi.spyOn(state.storage.sql, "exec");
  const events = unwrap(instance.get(window))?.events ?? [];
  const cursors = exec.mock.results.flatMap((r) => (r.type === "return" ? [r.value] : []));
  exec.mockRestore();
  return { ids: idsOf(events), rowsRead: cursors.reduce((sum, cursor) => sum + cursor.rowsRead, 0) };
}

describe("a session of many events (decision 046)", () => {
  it("reads only the events an afterTimestamp window selects, however long the log", async () => {
    const key = { appName: freshApp(), userId: "u1", sessionId: "long" };
    const events = Array.from({ length: LOG }, (_, i) => makeEvent({ timestamp: 1000 + i, text: `m${i}` }));
    const read = await runInDurableObject(sessionStub(key), (instance: SessionObject, state) => {
      instance.create(key, {}, events);
      return {
        recent: coldRead(instance, state, { afterTimestamp: 1000 + LOG - 30 }),
        both: coldRead(instance, state, { afterTimestamp: 1000, numRecentEvents: 5 }),
      };
    });
    expect(read.recent.ids).toEqual(idsOf(events.slice(-30)));
    // A few rows per event selected (the time index, the sequence numbers, the rows): not the 20,000 stored.
    expect(read.recent.rowsRead).toBeLessThan(30 * 5);
    expect(read.both.ids).toEqual(idsOf(events.slice(-5)));
  }, 60_000); // 20,000 events stored and read cold twice

  it("deletes a long session with its pending alarm: the object holds nothing after", async () => {
    const store = new DurableObjectSessionStore(env);
    const key = { appName: freshApp(), userId: "u1", sessionId: "long" };
    const events = Array.from({ length: LOG }, (_, i) => makeEvent({ text: `m${i}` }));
    await store.createSession({ ...key, events });
    await runInDurableObject(sessionStub(key), (_instance, state) =>
      state.storage.setAlarm(Date.now() + 3_600_000),
    );

    await store.deleteSession(key);
    const after = await runInDurableObject(sessionStub(key), async (_instance, state) => ({
      alarm: await state.storage.getAlarm(),
      events: state.storage.sql.exec("SELECT COUNT(*) AS n FROM events").one().n,
    }));
    expect(after).toEqual({ alarm: null, events: 0 });
    expect(await store.getSession(key)).toBeNull();
    expect((await store.listSessions(key.appName, key.userId)).sessions).toEqual([]);
  }, 60_000);
});
