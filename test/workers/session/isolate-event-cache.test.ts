import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import type { SessionKey } from "../../../src/core/session.js";
import type { EventWindow } from "../../../src/core/session-store.js";
import type { SessionObject } from "../../../src/objects/session-object.js";
import { DurableObjectSessionStore, type SessionStoreEnv } from "../../../src/session/do-store.js";
import { IsolateEventCache } from "../../../src/session/isolate-event-cache.js";
import type { BeginTurnInput } from "../../../src/session/session-records.js";
import { remote } from "../../../src/storage/rpc-result.js";
import { freshApp, idsOf, makeEvent } from "../../contract/fixtures.js";
import { newLifetime, sessionStub } from "../support/turn-control.js";

const newKey = (): SessionKey => ({ appName: freshApp(), userId: "u1", sessionId: "s1" });
const texts = (count: number, from = 0): Event[] =>
  Array.from({ length: count }, (_, i) => makeEvent({ text: `event ${from + i}` }));

/**
 * A store on its own isolate cache (as if in an isolate of its own) whose session objects report how many
 * events each `beginTurn` answer carried over RPC.
 */
function isolate() {
  const sent: number[] = [];
  const cache = new IsolateEventCache();
  const SESSIONS = {
    getByName(name: string) {
      const stub = env.SESSIONS.getByName(name);
      return new Proxy(stub, {
        get(target, prop) {
          if (prop !== "beginTurn") return Reflect.get(target, prop);
          return async (input: BeginTurnInput) => {
            const result = await remote(target).beginTurn(input);
            if (result.ok) sent.push(result.value.session.events.length);
            return result;
          };
        },
      });
    },
  };
  // SAFETY: the wrapper answers `getByName` with the real stub, `beginTurn` observed on its way back.
  const observed = { ...env, SESSIONS } as unknown as SessionStoreEnv;
  return { store: new DurableObjectSessionStore(observed, { eventCache: cache }), sent, cache };
}

/** One turn: the user event, then (like the runner) the answer under the lease, then the end. */
async function turn(store: DurableObjectSessionStore, key: SessionKey, window?: EventWindow) {
  const begun = await store.beginTurn(key, makeEvent({ text: "question" }), window, []);
  await store.appendEvent(key, makeEvent({ author: "agent", text: "answer" }), { lease: begun.lease });
  await store.endTurn(key, begun.lease);
  return begun.session.events;
}

/** What a cold read of the same window returns: the events a turn must have begun from. */
async function coldWindow(key: SessionKey, window?: EventWindow): Promise<string[]> {
  const read = await new DurableObjectSessionStore(env, { eventCache: null }).getSession(key, window);
  return idsOf(read?.events ?? []);
}

describe("A Worker isolate's cache of the sessions it began turns on", () => {
  it("asks the object only for the events after those it holds, and begins from the same window a cold read gives", async () => {
    const { store, sent } = isolate();
    const key = newKey();
    await store.createSession({ ...key, events: texts(30) });
    const first = await turn(store, key);
    const second = await store.beginTurn(key, makeEvent({ text: "next" }), undefined, []);
    expect(sent).toEqual([31, 2]);
    expect(idsOf(first)).toEqual((await coldWindow(key)).slice(0, 31));
    expect(idsOf(second.session.events)).toEqual(await coldWindow(key));
    expect(second.session.events).toHaveLength(33);
  });

  it("hands out frozen events in a fresh array each turn, so a turn's pushes reach neither the cache nor the next turn", async () => {
    const { store } = isolate();
    const key = newKey();
    await store.createSession({ ...key, events: texts(3) });
    const first = await turn(store, key);
    first.push(makeEvent({ text: "pushed by the turn, never stored" }));
    const begun = await store.beginTurn(key, makeEvent({ text: "next" }), undefined, []);
    const held = begun.session.events[0];
    expect(Object.isFrozen(held) && Object.isFrozen(held?.content?.parts?.[0])).toBe(true);
    expect(idsOf(begun.session.events)).toEqual(await coldWindow(key));
  });

  it("sees what another isolate appended meanwhile", async () => {
    const [here, there] = [isolate(), isolate()];
    const key = newKey();
    await here.store.createSession({ ...key, events: texts(5) });
    await turn(here.store, key);
    await turn(there.store, key);
    await there.store.appendEvent(key, makeEvent({ text: "appended outside a turn" }));
    const events = await turn(here.store, key);
    expect(here.sent).toEqual([6, 5]);
    expect(idsOf(events)).toEqual((await coldWindow(key)).slice(0, 11));
  });

  it("begins from the new session, not the held rows, when the session was deleted and created again with the same id and event ids", async () => {
    const [here, there] = [isolate(), isolate()];
    const key = newKey();
    const seeds = texts(4);
    await here.store.createSession({ ...key, events: seeds });
    const old = await turn(here.store, key);
    await there.store.deleteSession(key);
    // The same ids at the same places of the log: only the session's epoch tells the two apart.
    await there.store.createSession({ ...key, events: [...seeds, ...old.slice(4)] });
    const events = await turn(here.store, key);
    expect(here.sent).toEqual([5, 6]);
    expect(idsOf(events)).toEqual((await coldWindow(key)).slice(0, 6));
  });

  it("forgets a session its own store deletes", async () => {
    const { store, cache } = isolate();
    const key = newKey();
    await store.createSession({ ...key, events: texts(2) });
    await turn(store, key);
    expect(cache.usage.sessions).toBe(1);
    await store.deleteSession(key);
    expect(cache.usage.sessions).toBe(0);
  });

  it("moves a bounded window along: the held rows it still covers are reused, the cache holds no more than the window", async () => {
    const { store, sent, cache } = isolate();
    const key = newKey();
    const window = { numRecentEvents: 10 };
    await store.createSession({ ...key, events: texts(40) });
    const turns = [];
    for (let i = 0; i < 3; i++) turns.push(await turn(store, key, window));
    const last = await store.beginTurn(key, makeEvent({ text: "next" }), window, []);
    expect(sent).toEqual([10, 2, 2, 2]);
    expect(idsOf(last.session.events)).toEqual(await coldWindow(key, window));
    expect(turns.map((events) => events.length)).toEqual([10, 10, 10]);
    expect(cache.held(JSON.stringify([key.appName, key.userId, key.sessionId])).held).toMatchObject({
      fromSeq: 38,
      toSeq: 47,
    });
  });

  it("reads the whole window again when the isolate's window no longer reaches back to the new one's start", async () => {
    const { store, sent } = isolate();
    const key = newKey();
    await store.createSession({ ...key, events: texts(20) });
    await turn(store, key, { numRecentEvents: 3 });
    const wider = await store.beginTurn(key, makeEvent({ text: "next" }), { numRecentEvents: 8 }, []);
    expect(sent).toEqual([3, 8]);
    expect(idsOf(wider.session.events)).toEqual(await coldWindow(key, { numRecentEvents: 8 }));
  });

  it("keeps reusing its rows across the object's lifetimes: the epoch is stored with the session", async () => {
    const { store, sent } = isolate();
    const key = newKey();
    await store.createSession({ ...key, events: texts(8) });
    await turn(store, key);
    await newLifetime(key);
    const events = await turn(store, key);
    expect(sent).toEqual([9, 2]);
    expect(idsOf(events)).toEqual((await coldWindow(key)).slice(0, 11));
  });

  it("gives a session stored before epochs existed a stable epoch of its creation time", async () => {
    const { store, sent } = isolate();
    const key = newKey();
    await store.createSession({ ...key, events: texts(3) });
    await runInDurableObject(sessionStub(key), (_instance: SessionObject, state) => {
      state.storage.sql.exec("UPDATE session SET epoch = NULL WHERE id = 1");
    });
    await newLifetime(key);
    await turn(store, key);
    await newLifetime(key);
    const events = await turn(store, key);
    expect(sent).toEqual([4, 2]);
    expect(idsOf(events)).toEqual((await coldWindow(key)).slice(0, 6));
  });

  it("answers a time window whole, as before, and holds nothing for it", async () => {
    const { store, sent, cache } = isolate();
    const key = newKey();
    await store.createSession({ ...key, events: texts(4) });
    const begun = await store.beginTurn(key, makeEvent({ text: "q" }), { afterTimestamp: 0 }, []);
    expect(idsOf(begun.session.events)).toEqual(await coldWindow(key));
    expect(sent).toEqual([5]);
    expect(cache.usage.sessions).toBe(0);
  });
});
