import { describe, expect, it } from "vitest";
import { expectRefusal, type HarnessSetup, idsOf, makeEvent, useContract } from "./fixtures.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Create, read, list and delete (ADK-SEMANTICS §4.1, S04–S06). */
export function sessionCases(setup: HarnessSetup): void {
  describe("sessions", () => {
    const t = useContract(setup);

    it("creates a session under its trimmed id, with no events", async () => {
      const created = await t.store.createSession({ appName: t.app, userId: "u1", sessionId: "  s1 \n" });
      expect(created).toMatchObject({ id: "s1", appName: t.app, userId: "u1", state: {}, events: [] });
      expect(created.lastUpdateTime).toBeTypeOf("number");
      expect(await t.store.getSession(t.key("s1"))).toEqual(created);
    });

    it("gives a blank or missing session id a fresh UUID (S04)", async () => {
      const blank = await t.store.createSession({ appName: t.app, userId: "u1", sessionId: "   " });
      const missing = await t.store.createSession({ appName: t.app, userId: "u1" });
      expect(blank.id).toMatch(UUID);
      expect(missing.id).toMatch(UUID);
      expect(blank.id).not.toBe(missing.id);
      expect(await t.store.getSession(t.key(blank.id))).not.toBeNull();
    });

    it("refuses to create a session whose id exists with session_exists (S04)", async () => {
      await t.session("s1", "u1", { a: 1 });
      await expect(t.store.createSession({ ...t.key("s1"), state: { a: 2 } })).rejects.toMatchObject({
        name: "BatonError",
        code: "session_exists",
        status: 409,
      });
      expect((await t.store.getSession(t.key("s1")))?.state).toEqual({ a: 1 });
    });

    it("lets two users, and two apps, each have a session with the same id", async () => {
      await t.session("same", "u1", { owner: 1 });
      await t.session("same", "u2", { owner: 2 });
      const other = { appName: `${t.app}-other`, userId: "u1", sessionId: "same" };
      await t.store.createSession({ ...other, state: { owner: 3 } });
      expect((await t.store.getSession(t.key("same", "u1")))?.state).toEqual({ owner: 1 });
      expect((await t.store.getSession(t.key("same", "u2")))?.state).toEqual({ owner: 2 });
      expect((await t.store.getSession(other))?.state).toEqual({ owner: 3 });
    });

    it("splits the initial state by prefix and drops temp: keys", async () => {
      const created = await t.store.createSession({
        ...t.key("s1"),
        state: { a: 1, "app:b": 2, "user:c": 3, "temp:d": 4 },
      });
      const expected = { a: 1, "app:b": 2, "user:c": 3 };
      expect(created.state).toEqual(expected);
      expect((await t.store.getSession(t.key("s1")))?.state).toEqual(expected);
      // Another user of the app sees the app: key only.
      const other = await t.session("s2", "u2");
      expect((await t.store.getSession(other))?.state).toEqual({ "app:b": 2 });
    });

    it("creates a session with seed events in order, their deltas applied after the state, partials skipped", async () => {
      const first = makeEvent({ text: "hi", stateDelta: { a: 2, "user:u": 1, "temp:t": 1 } });
      const partial = { ...makeEvent({ text: "half" }), partial: true };
      const second = makeEvent({ author: "root", text: "hello", stateDelta: { "app:x": "y" } });
      const created = await t.store.createSession({
        ...t.key("seeded"),
        state: { a: 1, b: 1 },
        events: [first, partial, second],
      });
      const expected = { a: 2, b: 1, "user:u": 1, "app:x": "y" };
      expect(created.state).toEqual(expected);
      expect(idsOf(created.events)).toEqual([first.id, second.id]);
      expect(created.events[0]?.actions.stateDelta).toEqual({ a: 2, "user:u": 1 });
      expect(created.lastUpdateTime).toBe(second.timestamp);
      expect(await t.store.getSession(t.key("seeded"))).toEqual(created);
    });

    it("creates nothing when a seed event id repeats (invalid_request)", async () => {
      const event = makeEvent({ text: "twice", stateDelta: { "user:seen": true } });
      await expectRefusal(
        t.store.createSession({ ...t.key("twice"), state: { a: 1 }, events: [event, event] }),
        "invalid_request",
      );
      expect(await t.store.getSession(t.key("twice"))).toBeNull();
      expect((await t.store.listSessions(t.app, "u1")).sessions.map((s) => s.id)).not.toContain("twice");
      const again = await t.store.createSession({ ...t.key("twice") });
      expect(again.state).toEqual({});
      expect(again.events).toEqual([]);
    });

    it("returns null for a session that does not exist", async () => {
      expect(await t.store.getSession(t.key("nope"))).toBeNull();
    });

    it("lists every session of the user without events and with merged state (S05)", async () => {
      await t.session("s1", "u1", { n: 1, "user:u": "x", "app:a": "y" });
      await t.session("s2", "u1", { n: 2 });
      await t.session("elsewhere", "u2");
      await t.store.appendEvent(t.key("s1"), makeEvent({ text: "hi" }));
      const listed = (await t.store.listSessions(t.app, "u1")).sessions;
      const byId = Object.fromEntries(listed.map((s) => [s.id, s]));
      expect(Object.keys(byId).sort()).toEqual(["s1", "s2"]);
      expect(byId.s1).toMatchObject({ appName: t.app, userId: "u1", events: [] });
      expect(byId.s1?.state).toEqual({ n: 1, "user:u": "x", "app:a": "y" });
      expect(byId.s2?.state).toEqual({ n: 2, "user:u": "x", "app:a": "y" });
      expect(await t.store.listSessions(t.app, "nobody")).toEqual({ sessions: [] });
    });

    it("deletes a session so it is neither read nor listed", async () => {
      await t.session("s1");
      await t.session("s2");
      await t.store.deleteSession(t.key("s1"));
      expect(await t.store.getSession(t.key("s1"))).toBeNull();
      expect((await t.store.listSessions(t.app, "u1")).sessions.map((s) => s.id)).toEqual(["s2"]);
    });

    it("treats deleting a missing session as a no-op", async () => {
      await expect(t.store.deleteSession(t.key("never"))).resolves.toBeUndefined();
      expect(await t.store.listSessions(t.app, "u1")).toEqual({ sessions: [] });
    });

    it("lets a deleted session id be created again, empty", async () => {
      const key = await t.session("s1", "u1", { old: true });
      await t.store.appendEvent(key, makeEvent({ text: "old" }));
      await t.store.deleteSession(key);
      const again = await t.store.createSession({ ...key, state: { fresh: true } });
      expect(again.state).toEqual({ fresh: true });
      expect((await t.store.getSession(key))?.events).toEqual([]);
    });
  });

  describe("event windows (S06)", () => {
    const t = useContract(setup);
    const seed = async () => {
      const key = await t.session();
      const events = [10, 20, 30, 40].map((s) =>
        makeEvent({ text: `at ${s}`, timestamp: 1_800_000_000 + s }),
      );
      for (const event of events) await t.store.appendEvent(key, event);
      return { key, ids: idsOf(events) };
    };

    it("returns every event by default, in append order", async () => {
      const { key, ids } = await seed();
      expect(idsOf((await t.store.getSession(key))?.events ?? [])).toEqual(ids);
    });

    it("gives no events for numRecentEvents 0 and the last n for n", async () => {
      const { key, ids } = await seed();
      expect((await t.store.getSession(key, { numRecentEvents: 0 }))?.events).toEqual([]);
      expect(idsOf((await t.store.getSession(key, { numRecentEvents: 2 }))?.events ?? [])).toEqual(
        ids.slice(2),
      );
      expect(idsOf((await t.store.getSession(key, { numRecentEvents: 9 }))?.events ?? [])).toEqual(ids);
    });

    it("gives the events at or after afterTimestamp", async () => {
      const { key, ids } = await seed();
      const after = await t.store.getSession(key, { afterTimestamp: 1_800_000_020 });
      expect(idsOf(after?.events ?? [])).toEqual(ids.slice(1));
      expect((await t.store.getSession(key, { afterTimestamp: 1_900_000_000 }))?.events).toEqual([]);
    });

    it("takes the last n of the events at or after afterTimestamp when both are given", async () => {
      const { key, ids } = await seed();
      const window = { afterTimestamp: 1_800_000_020, numRecentEvents: 2 };
      expect(idsOf((await t.store.getSession(key, window))?.events ?? [])).toEqual(ids.slice(2));
      const wide = { afterTimestamp: 1_800_000_030, numRecentEvents: 5 };
      expect(idsOf((await t.store.getSession(key, wide))?.events ?? [])).toEqual(ids.slice(2));
    });
  });
}
