import { describe, expect, it } from "vitest";
import { expectRefusal, type HarnessSetup, idsOf, makeEvent, useContract } from "./fixtures.js";

/** `appendEvent` without a turn running (ADK-SEMANTICS §4.3, S01–S03). */
export function appendCases(setup: HarnessSetup): void {
  describe("appendEvent", () => {
    const t = useContract(setup);

    it("returns a partial event unchanged and stores nothing, applying no state (S01)", async () => {
      const key = await t.session("s1", "u1", { a: 0 });
      const partial = makeEvent({
        author: "root",
        text: "Hel",
        partial: true,
        stateDelta: { a: 1, "temp:t": 2 },
      });
      const returned = await t.store.appendEvent(key, partial);
      expect(returned).toEqual(partial);
      const session = await t.store.getSession(key);
      expect(session?.events).toEqual([]);
      expect(session?.state).toEqual({ a: 0 });
    });

    it("applies a delta by scope and strips temp: keys from the stored and returned event (S02)", async () => {
      const key = await t.session();
      const delta = { a: 1, "app:b": 2, "user:c": 3, "temp:d": 4 };
      const returned = await t.store.appendEvent(key, makeEvent({ author: "root", stateDelta: delta }));
      const persistedDelta = { a: 1, "app:b": 2, "user:c": 3 };
      expect(returned.actions.stateDelta).toEqual(persistedDelta);
      const session = await t.store.getSession(key);
      expect(session?.state).toEqual(persistedDelta);
      expect(session?.events[0]?.actions.stateDelta).toEqual(persistedDelta);
      expect(session?.events[0]).toEqual(returned);
    });

    it("shares app: state across users and user: state across one user's sessions only (S03)", async () => {
      const mine = await t.session("s1", "u1");
      const myOther = await t.session("s2", "u1");
      const theirs = await t.session("s3", "u2");
      await t.store.appendEvent(mine, makeEvent({ stateDelta: { own: 1, "app:b": 2, "user:c": 3 } }));
      expect((await t.store.getSession(myOther))?.state).toEqual({ "app:b": 2, "user:c": 3 });
      expect((await t.store.getSession(theirs))?.state).toEqual({ "app:b": 2 });
      await t.store.appendEvent(theirs, makeEvent({ stateDelta: { "app:b": 5, "user:c": 6 } }));
      expect((await t.store.getSession(mine))?.state).toEqual({ own: 1, "app:b": 5, "user:c": 3 });
    });

    it("merges a delta key by key into what is there", async () => {
      const key = await t.session("s1", "u1", { a: 1, b: 1, "user:u": { deep: 1 } });
      await t.store.appendEvent(key, makeEvent({ stateDelta: { b: 2, c: null, "user:u": { other: 2 } } }));
      expect((await t.store.getSession(key))?.state).toEqual({ a: 1, b: 2, c: null, "user:u": { other: 2 } });
    });

    it("sets lastUpdateTime to the appended event's timestamp", async () => {
      const key = await t.session();
      const event = makeEvent({ text: "hi", timestamp: 1_900_000_000.25 });
      await t.store.appendEvent(key, event);
      expect((await t.store.getSession(key))?.lastUpdateTime).toBe(1_900_000_000.25);
    });

    it("keeps events in append order, whatever their timestamps", async () => {
      const key = await t.session();
      const events = [30, 10, 20].map((s) => makeEvent({ text: `${s}`, timestamp: 1_800_000_000 + s }));
      for (const event of events) await t.store.appendEvent(key, event);
      expect(idsOf((await t.store.getSession(key))?.events ?? [])).toEqual(idsOf(events));
    });

    it("stores every field of an event as it was appended", async () => {
      const key = await t.session();
      const event = makeEvent({
        author: "root",
        branch: "root.billing",
        content: {
          role: "model",
          parts: [{ functionCall: { id: "adk-1", name: "transfer_to_agent", args: {} } }],
        },
        longRunningToolIds: [],
        customMetadata: { k: 1 },
        stateDelta: { x: [1, { y: "z" }] },
      });
      event.actions.transferToAgent = "billing";
      await t.store.appendEvent(key, event);
      expect((await t.store.getSession(key))?.events).toEqual([event]);
    });

    it("refuses an append to a missing session with session_not_found", async () => {
      await expectRefusal(t.store.appendEvent(t.key("nope"), makeEvent({ text: "hi" })), "session_not_found");
    });

    it("refuses an event whose id is already stored, storing nothing", async () => {
      const key = await t.session();
      const event = makeEvent({ text: "once" });
      await t.store.appendEvent(key, event);
      await expectRefusal(
        t.store.appendEvent(key, { ...event, actions: { ...event.actions, stateDelta: { a: 1 } } }),
        "invalid_request",
      );
      const session = await t.store.getSession(key);
      expect(idsOf(session?.events ?? [])).toEqual([event.id]);
      expect(session?.state).toEqual({});
    });

    it("keeps what it stored out of the caller's reach: a change to a returned event or value throws or is not seen", async () => {
      const key = await t.session("s1", "u1", { list: [1] });
      const event = makeEvent({ stateDelta: { obj: { n: 1 } } });
      const returned = await t.store.appendEvent(key, event);
      event.actions.stateDelta.obj = "changed";
      attempt(() => {
        returned.actions.stateDelta.obj = "changed too";
      });
      const read = await t.store.getSession(key);
      if (!read) throw new Error("the session should exist");
      const list = read.state.list;
      expect(Array.isArray(list)).toBe(true);
      attempt(() => (Array.isArray(list) ? list.push(2) : 0));
      attempt(() => {
        const nested = read.events[0]?.actions.stateDelta.obj;
        if (typeof nested === "object" && nested !== null) Object.assign(nested, { n: 2 });
      });
      read.events.pop();
      read.state.added = true;
      const again = await t.store.getSession(key);
      expect(again?.state).toEqual({ list: [1], obj: { n: 1 } });
      expect(again?.events).toHaveLength(1);
      expect(again?.events[0]?.actions.stateDelta).toEqual({ obj: { n: 1 } });
    });
  });
}

/** Runs a change a store may refuse: stores that share frozen objects make it throw a `TypeError`. */
function attempt(change: () => unknown): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}
