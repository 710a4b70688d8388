import { describe, expect, it } from "vitest";
import { expectRefusal, type HarnessSetup, idsOf, makeEvent, useContract } from "./fixtures.js";

/** `beginTurn` / `endTurn` and the lease that keeps one turn at a time per session (S08). */
export function turnCases(setup: HarnessSetup): void {
  describe("turns and leases", () => {
    const t = useContract(setup);

    it("stores the user event with its stateDelta and returns state that already has it (S08)", async () => {
      const key = await t.session("s1", "u1", { old: 1 });
      const userEvent = makeEvent({ text: "hi", stateDelta: { x: 1, "user:u": 2, "temp:t": 3 } });
      const { session, lease } = await t.store.beginTurn(key, userEvent);
      expect(lease).toBeTypeOf("string");
      expect(session.state).toEqual({ old: 1, x: 1, "user:u": 2 });
      expect(session.events).toHaveLength(1);
      expect(session.events[0]?.actions.stateDelta).toEqual({ x: 1, "user:u": 2 });
      expect(session.lastUpdateTime).toBe(userEvent.timestamp);
      expect(await t.store.getSession(key)).toEqual(session);
    });

    it("returns the events the window selects, the user event included", async () => {
      const key = await t.session();
      const earlier = makeEvent({ text: "earlier" });
      await t.store.appendEvent(key, earlier);
      const userEvent = makeEvent({ text: "now" });
      const all = await t.store.beginTurn(key, userEvent);
      expect(idsOf(all.session.events)).toEqual([earlier.id, userEvent.id]);
      await t.store.endTurn(key, all.lease);
      const next = makeEvent({ text: "next" });
      const last = await t.store.beginTurn(key, next, { numRecentEvents: 1 });
      expect(idsOf(last.session.events)).toEqual([next.id]);
    });

    it("refuses beginTurn on a missing session with session_not_found", async () => {
      await expectRefusal(t.store.beginTurn(t.key("nope"), makeEvent({ text: "hi" })), "session_not_found");
    });

    it("refuses a second turn while the first holds the lease, storing nothing (session_busy)", async () => {
      const key = await t.session();
      const first = makeEvent({ text: "one" });
      await t.store.beginTurn(key, first);
      await expect(
        t.store.beginTurn(key, makeEvent({ text: "two", stateDelta: { y: 1 } })),
      ).rejects.toMatchObject({
        code: "session_busy",
        status: 409,
      });
      const session = await t.store.getSession(key);
      expect(idsOf(session?.events ?? [])).toEqual([first.id]);
      expect(session?.state).toEqual({});
    });

    it("accepts appends that present the lease", async () => {
      const key = await t.session();
      const { lease } = await t.store.beginTurn(key, makeEvent({ text: "hi" }));
      const reply = makeEvent({ author: "root", text: "hello", stateDelta: { answered: true } });
      await t.store.appendEvent(key, reply, { lease });
      const session = await t.store.getSession(key);
      expect(session?.events.at(-1)).toEqual(reply);
      expect(session?.state).toEqual({ answered: true });
    });

    it("refuses an append without the lease while a turn runs with session_busy", async () => {
      const key = await t.session();
      await t.store.beginTurn(key, makeEvent({ text: "hi" }));
      await expectRefusal(t.store.appendEvent(key, makeEvent({ stateDelta: { y: 2 } })), "session_busy");
      expect((await t.store.getSession(key))?.state).toEqual({});
    });

    it("accepts an append without a lease when no turn runs (S09)", async () => {
      const key = await t.session();
      await t.store.appendEvent(key, makeEvent({ invocationId: "p-1", stateDelta: { y: 2 } }));
      expect((await t.store.getSession(key))?.state).toEqual({ y: 2 });
    });

    it("refuses an append with a lease the session never granted with lease_lost", async () => {
      const key = await t.session();
      await expectRefusal(t.store.appendEvent(key, makeEvent(), { lease: "made-up" }), "lease_lost");
      expect((await t.store.getSession(key))?.events).toEqual([]);
    });

    it("renews the lease on every append that presents it", async () => {
      const key = await t.session();
      const ttl = t.harness.leaseTtlMs;
      const { lease } = await t.store.beginTurn(key, makeEvent({ text: "hi" }));
      await t.harness.elapse(key, ttl * 0.6);
      await t.store.appendEvent(key, makeEvent({ author: "root" }), { lease });
      await t.harness.elapse(key, ttl * 0.6);
      await expectRefusal(t.store.beginTurn(key, makeEvent({ text: "again" })), "session_busy");
      await expect(t.store.appendEvent(key, makeEvent({ author: "root" }), { lease })).resolves.toBeDefined();
    });

    it("frees the session for a new turn once the lease lapses", async () => {
      const key = await t.session();
      await t.store.beginTurn(key, makeEvent({ text: "one" }));
      await t.harness.elapse(key, t.harness.leaseTtlMs);
      const second = await t.store.beginTurn(key, makeEvent({ text: "two" }));
      expect(second.session.events).toHaveLength(2);
    });

    it("accepts an append without a lease once the lease lapses", async () => {
      const key = await t.session();
      await t.store.beginTurn(key, makeEvent({ text: "one" }));
      await t.harness.elapse(key, t.harness.leaseTtlMs);
      await t.store.appendEvent(key, makeEvent({ stateDelta: { patched: true } }));
      expect((await t.store.getSession(key))?.state).toEqual({ patched: true });
    });

    it("refuses an append with a lapsed lease with lease_lost, storing nothing", async () => {
      const key = await t.session();
      const { lease } = await t.store.beginTurn(key, makeEvent({ text: "one" }));
      await t.harness.elapse(key, t.harness.leaseTtlMs);
      await expectRefusal(
        t.store.appendEvent(key, makeEvent({ stateDelta: { late: 1 } }), { lease }),
        "lease_lost",
      );
      const session = await t.store.getSession(key);
      expect(session?.events).toHaveLength(1);
      expect(session?.state).toEqual({});
    });

    it("refuses the old turn's lease with lease_lost once a newer turn took over", async () => {
      const key = await t.session();
      const old = await t.store.beginTurn(key, makeEvent({ text: "one" }));
      await t.harness.elapse(key, t.harness.leaseTtlMs);
      const current = await t.store.beginTurn(key, makeEvent({ text: "two" }));
      expect(current.lease).not.toBe(old.lease);
      await expectRefusal(t.store.appendEvent(key, makeEvent(), { lease: old.lease }), "lease_lost");
      await expect(t.store.appendEvent(key, makeEvent(), { lease: current.lease })).resolves.toBeDefined();
    });

    it("releases the lease on endTurn, so the next turn begins and the old lease is lost", async () => {
      const key = await t.session();
      const { lease } = await t.store.beginTurn(key, makeEvent({ text: "one" }));
      await t.store.endTurn(key, lease);
      await expectRefusal(t.store.appendEvent(key, makeEvent(), { lease }), "lease_lost");
      await expect(t.store.beginTurn(key, makeEvent({ text: "two" }))).resolves.toBeDefined();
    });

    it("leaves a newer turn's lease alone when an old lease is ended", async () => {
      const key = await t.session();
      const old = await t.store.beginTurn(key, makeEvent({ text: "one" }));
      await t.harness.elapse(key, t.harness.leaseTtlMs);
      const current = await t.store.beginTurn(key, makeEvent({ text: "two" }));
      await t.store.endTurn(key, old.lease);
      await expectRefusal(t.store.beginTurn(key, makeEvent({ text: "three" })), "session_busy");
      await expect(t.store.appendEvent(key, makeEvent(), { lease: current.lease })).resolves.toBeDefined();
    });

    it("never throws from endTurn for a lapsed lease, an unknown lease or a missing session", async () => {
      const key = await t.session();
      const { lease } = await t.store.beginTurn(key, makeEvent({ text: "one" }));
      await t.harness.elapse(key, t.harness.leaseTtlMs);
      await expect(t.store.endTurn(key, lease)).resolves.toBeUndefined();
      await expect(t.store.endTurn(key, "unknown")).resolves.toBeUndefined();
      await expect(t.store.endTurn(t.key("nope"), "unknown")).resolves.toBeUndefined();
    });

    it("holds each session's lease apart from the others'", async () => {
      const one = await t.session("s1");
      const two = await t.session("s2");
      await t.store.beginTurn(one, makeEvent({ text: "one" }));
      await expect(t.store.beginTurn(two, makeEvent({ text: "two" }))).resolves.toBeDefined();
      await expect(t.store.appendEvent(t.key("s3"), makeEvent())).rejects.toMatchObject({
        code: "session_not_found",
      });
    });
  });
}
