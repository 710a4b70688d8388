import { describe, expect, it } from "vitest";
import type { SessionKey } from "../../src/core/session.js";
import { TRACE_LIMITS, type TurnTrace, withStoredSize } from "../../src/core/trace.js";
import { type HarnessSetup, makeEvent, useContract } from "./fixtures.js";

/** A small trace of one invocation: a root span and a model call under it. */
/** A trace as `listTraces` returns it: with the UTF-8 size of its stored JSON on the root span. */
export const asListed = (trace: TurnTrace): TurnTrace =>
  withStoredSize(trace, new TextEncoder().encode(JSON.stringify(trace)).byteLength);

export function traceOf(invocationId: string): TurnTrace {
  return {
    traceId: "0af7651916cd43dd8448eb211c80319c",
    invocationId,
    spans: [
      { name: "invocation", spanId: "b7ad6b7169203331", startMs: 1, endMs: 9, attributes: { "baton.n": 1 } },
      {
        name: "call_llm",
        spanId: "00f067aa0ba902b7",
        parentSpanId: "b7ad6b7169203331",
        startMs: 2,
        endMs: 8,
        attributes: { "gen_ai.response.finish_reasons": ["STOP"], ok: true },
        error: "boom",
      },
    ],
  };
}

/** Each turn's trace is stored with the session by `endTurn` and read back in order (decision 014). */
export function traceCases(setup: HarnessSetup): void {
  describe("turn traces", () => {
    const t = useContract(setup);
    const traces = (key: SessionKey) => {
      if (!t.store.listTraces) throw new Error("the store under test has no listTraces");
      return t.store.listTraces(key);
    };
    const owners = (sessionId: string) => {
      if (!t.store.findSessionOwners) throw new Error("the store under test has no findSessionOwners");
      return t.store.findSessionOwners(t.app, sessionId);
    };

    it("stores the trace given to endTurn and lists the session's traces oldest first", async () => {
      const key = await t.session();
      for (const id of ["e-1", "e-2"]) {
        const { lease } = await t.store.beginTurn(key, makeEvent({ text: id }));
        await t.store.endTurn(key, lease, traceOf(id));
      }
      const { lease } = await t.store.beginTurn(key, makeEvent({ text: "untraced" }));
      await t.store.endTurn(key, lease);
      expect(await traces(key)).toEqual([asListed(traceOf("e-1")), asListed(traceOf("e-2"))]);
      expect(await traces(t.key("s1", "someone-else"))).toEqual([]);
    });

    it("keeps a stored trace as it was: a change to a listed one throws or is not seen", async () => {
      const key = await t.session();
      const { lease } = await t.store.beginTurn(key, makeEvent({ text: "traced" }));
      await t.store.endTurn(key, lease, traceOf("e-1"));
      const [listed] = await traces(key);
      const span = listed?.spans[0];
      if (!span) throw new Error("no span listed");
      try {
        span.attributes["baton.n"] = 2;
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
      }
      expect(await traces(key)).toEqual([asListed(traceOf("e-1"))]);
    });

    it(`keeps only the last ${TRACE_LIMITS.turnsPerSession} traces of a session`, async () => {
      const key = await t.session();
      const extra = 3;
      // One lease: a turn that ends after its lease was released still stores its trace.
      const { lease } = await t.store.beginTurn(key, makeEvent({ text: "first" }));
      for (let i = 0; i < TRACE_LIMITS.turnsPerSession + extra; i++)
        await t.store.endTurn(key, lease, traceOf(`e-${i}`));
      const kept = await traces(key);
      expect(kept).toHaveLength(TRACE_LIMITS.turnsPerSession);
      expect(kept[0]?.invocationId).toBe(`e-${extra}`);
    }, 20_000); // 54 calls to one Durable Object, one after the other

    it("finds every user of the app who has a session with a given id, and forgets deleted ones", async () => {
      await t.session("shared", "u1");
      await t.session("shared", "u2");
      await t.session("other", "u3");
      expect((await owners("shared")).sort()).toEqual(["u1", "u2"]);
      await t.store.deleteSession(t.key("shared", "u1"));
      expect(await owners("shared")).toEqual(["u2"]);
      expect(await owners("nobody")).toEqual([]);
    });
  });
}
