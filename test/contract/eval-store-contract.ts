import { beforeEach, describe, expect, it } from "vitest";
import type { EvalCase } from "../../src/evals/eval-set.js";
import { EvalSets } from "../../src/evals/eval-sets.js";
import { type EvalDocumentStore, MAX_EVAL_DOCUMENT_BYTES } from "../../src/evals/eval-store.js";
import { freshApp } from "./fixtures.js";

const clock = { now: () => 1_796_000_000_000 };

const evalCase = (evalId: string, text = "What is the weather in Lisbon?"): EvalCase => ({
  evalId,
  conversation: [
    {
      invocationId: "e-1",
      userContent: { role: "user", parts: [{ text }] },
      finalResponse: { parts: [{ text: "Sunny." }] },
      intermediateData: {
        toolUses: [{ name: "get_forecast", args: { city: "Lisbon" } }],
        intermediateResponses: [],
      },
      creationTimestamp: 1,
    },
  ],
  sessionInput: { appName: "demo", userId: "u", state: { "user:tier": "gold" } },
  creationTimestamp: 2,
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as { code: string; message: string };
}

/**
 * The `EvalDocumentStore` contract, through `EvalSets` (what ADK's routes use): sets and results per app,
 * kept apart per app and kind, read back as written, listed sorted, and refused past the size limit.
 */
export function describeEvalStoreContract(label: string, setup: () => EvalDocumentStore): void {
  describe(`EvalDocumentStore contract: ${label}`, () => {
    let store: EvalDocumentStore;
    let sets: EvalSets;
    let app: string;
    beforeEach(() => {
      store = setup();
      sets = new EvalSets(store, clock);
      app = freshApp();
    });

    it("lists a page of ids: those after a given one, at most a limit, every id once over the pages", async () => {
      const ids = ["s1", "s2", "s3", "s4", "s5"];
      for (const evalSetId of [...ids].reverse()) await sets.createSet(app, { evalSetId });
      const first = await sets.listSets(app, { limit: 2 });
      const second = await sets.listSets(app, { after: first.at(-1), limit: 2 });
      const third = await sets.listSets(app, { after: second.at(-1), limit: 2 });
      expect([first, second, third]).toEqual([["s1", "s2"], ["s3", "s4"], ["s5"]]);
      expect(await sets.listSets(app, { after: "s5", limit: 2 })).toEqual([]);
      expect(await sets.listSets(app, { after: "s2" })).toEqual(["s3", "s4", "s5"]);
    });

    it("creates, lists (sorted), reads and deletes eval sets, per app", async () => {
      expect(await sets.listSets(app)).toEqual([]);
      const made = await sets.createSet(app, { evalSetId: "b_set", name: "B", description: "the b set" });
      expect(made).toEqual({
        evalSetId: "b_set",
        name: "B",
        description: "the b set",
        evalCases: [],
        creationTimestamp: 1_796_000_000,
      });
      await sets.createSet(app, { evalSetId: "a_set" });
      expect(await sets.listSets(app)).toEqual(["a_set", "b_set"]);
      expect(await sets.listSets(freshApp())).toEqual([]);
      expect(await sets.getSet(app, "b_set")).toEqual(made);
      await sets.deleteSet(app, "b_set");
      expect(await sets.listSets(app)).toEqual(["a_set"]);
      expect((await refusal(sets.getSet(app, "b_set"))).code).toBe("not_found");
      expect((await refusal(sets.deleteSet(app, "b_set"))).code).toBe("not_found");
    });

    it("refuses a second set with the same id", async () => {
      await sets.createSet(app, { evalSetId: "s" });
      const error = await refusal(sets.createSet(app, { evalSetId: "s" }));
      expect(error).toMatchObject({
        code: "invalid_request",
        message: expect.stringContaining('"s" already exists'),
      });
    });

    it("adds, replaces, reads, updates and deletes cases, keeping tool arguments and state as written", async () => {
      await sets.createSet(app, { evalSetId: "s" });
      await sets.putCase(app, "s", evalCase("one"));
      await sets.putCase(app, "s", evalCase("two"));
      await sets.putCase(app, "s", evalCase("one", "Replaced?"));
      const stored = await sets.getSet(app, "s");
      expect(stored.evalCases.map((c) => c.evalId)).toEqual(["two", "one"]);
      expect(await sets.getCase(app, "s", "one")).toEqual(evalCase("one", "Replaced?"));
      await sets.updateCase(app, "s", evalCase("two", "Updated?"));
      expect((await sets.getCase(app, "s", "two")).conversation[0]?.userContent.parts?.[0]?.text).toBe(
        "Updated?",
      );
      expect((await refusal(sets.updateCase(app, "s", evalCase("three")))).code).toBe("not_found");
      await sets.deleteCase(app, "s", "one");
      expect((await refusal(sets.getCase(app, "s", "one"))).code).toBe("not_found");
      expect((await refusal(sets.deleteCase(app, "s", "one"))).code).toBe("not_found");
      expect((await refusal(sets.putCase(app, "missing", evalCase("x")))).code).toBe("not_found");
    });

    it("keeps results apart from sets, listed sorted, and reads them back", async () => {
      const result = (id: string) => ({
        evalSetResultId: id,
        evalSetResultName: id,
        evalSetId: "s",
        creationTimestamp: 3,
        evalCaseResults: [
          {
            evalSetFile: "s",
            evalSetId: "s",
            evalId: "one",
            finalEvalStatus: 1 as const,
            overallEvalMetricResults: [
              { metricName: "tool_trajectory_avg_score", threshold: 1, score: 1, evalStatus: 1 as const },
            ],
            evalMetricResultPerInvocation: [],
            sessionId: "___eval___session___x",
            userId: "u",
          },
        ],
      });
      await sets.putResult(app, result(`${app}_s_2.5`));
      await sets.putResult(app, result(`${app}_s_1.5`));
      expect(await sets.listResults(app)).toEqual([`${app}_s_1.5`, `${app}_s_2.5`]);
      expect(await sets.listSets(app)).toEqual([]);
      expect(await sets.getResult(app, `${app}_s_2.5`)).toEqual(result(`${app}_s_2.5`));
      expect((await refusal(sets.getResult(app, "nope"))).code).toBe("not_found");
    });

    it("stores documents of any characters ids allow and refuses one over the size limit", async () => {
      await store.put(app, "set", "ünï-cødé_1.0", '{"x":"✓"}');
      expect(await store.get(app, "set", "ünï-cødé_1.0")).toBe('{"x":"✓"}');
      expect(await store.get(app, "result", "ünï-cødé_1.0")).toBeNull();
      expect(await store.delete(app, "set", "ünï-cødé_1.0")).toBe(true);
      expect(await store.delete(app, "set", "ünï-cødé_1.0")).toBe(false);
      const big = JSON.stringify({ pad: "x".repeat(MAX_EVAL_DOCUMENT_BYTES) });
      expect((await refusal(store.put(app, "set", "big", big))).code).toBe("payload_too_large");
      expect(await store.get(app, "set", "big")).toBeNull();
    });
  });
}
