import { describe, expect, it } from "vitest";
import { expectRefusal, type HarnessSetup, idsOf, makeEvent, useContract } from "./fixtures.js";

/** `beginTurn` for a user event already stored: a retried delivery resuming its turn. */
export function resumeCases(setup: HarnessSetup): void {
  describe("resuming a turn", () => {
    const t = useContract(setup);

    it("says a fresh turn is not resumed", async () => {
      const key = await t.session();
      const { resumed } = await t.store.beginTurn(key, makeEvent({ text: "hi" }));
      expect(resumed).toBe(false);
    });

    it("takes the lease for a stored user event without appending it again or applying its delta twice", async () => {
      const key = await t.session("s1", "u1", { n: 0 });
      const userEvent = makeEvent({ text: "hi", stateDelta: { n: 1, "user:seen": 1, "app:hits": 1 } });
      const first = await t.store.beginTurn(key, userEvent);
      const reply = makeEvent({ author: "root", text: "partway" });
      await t.store.appendEvent(key, reply, { lease: first.lease });
      await t.store.endTurn(key, first.lease);
      // Something else moves the shared state on; resuming must not put the user event's values back.
      await t.store.appendEvent(
        key,
        makeEvent({ author: "root", stateDelta: { "user:seen": 2, "app:hits": 5 } }),
      );
      const again = await t.store.beginTurn(key, userEvent);
      expect(again.resumed).toBe(true);
      expect(again.lease).not.toBe(first.lease);
      expect(idsOf(again.session.events).filter((id) => id === userEvent.id)).toHaveLength(1);
      expect(again.session.events.slice(0, 2).map((e) => e.id)).toEqual([userEvent.id, reply.id]);
      expect(again.session.state).toEqual({ n: 1, "user:seen": 2, "app:hits": 5 });
      await t.store.appendEvent(key, makeEvent({ author: "root", text: "done" }), { lease: again.lease });
      expect((await t.store.getSession(key))?.events).toHaveLength(4);
    });

    it("refuses to resume while another turn holds the lease (session_busy), appending nothing", async () => {
      const key = await t.session();
      const userEvent = makeEvent({ text: "hi" });
      const first = await t.store.beginTurn(key, userEvent);
      await t.store.endTurn(key, first.lease);
      await t.store.beginTurn(key, makeEvent({ text: "other turn" }));
      await expectRefusal(t.store.beginTurn(key, userEvent), "session_busy");
      expect((await t.store.getSession(key))?.events).toHaveLength(2);
    });

    it("resumes after the earlier attempt's lease lapsed", async () => {
      const key = await t.session();
      const userEvent = makeEvent({ text: "hi" });
      await t.store.beginTurn(key, userEvent);
      await t.harness.elapse(key, t.harness.leaseTtlMs + 1);
      const again = await t.store.beginTurn(key, userEvent);
      expect(again.resumed).toBe(true);
      expect(idsOf(again.session.events)).toEqual([userEvent.id]);
    });
  });
}
