import { describe, expect, it } from "vitest";
import type { InvocationContext } from "../../../../src/agents/invocation-context.js";
import { LlmAgent } from "../../../../src/agents/llm-agent.js";
import { ParallelAgent } from "../../../../src/agents/parallel-agent.js";
import { SequentialAgent } from "../../../../src/agents/sequential-agent.js";
import { textOf } from "../../../../src/core/content.js";
import { deferred } from "../../support/deferred.js";
import { harness } from "../../support/harness.js";
import { ScriptAgent } from "../../support/script-agent.js";
import { promptText, scriptedModel } from "../../support/scripted-model.js";

const said = (ctx: InvocationContext) => ctx.session.events.map((e) => textOf(e.content));

describe("ParallelAgent", () => {
  it("puts each sub-agent on its own branch <parallel>.<child>", async () => {
    const h = await harness(
      new ParallelAgent({
        name: "fanout",
        subAgents: [new ScriptAgent({ name: "a" }, ["from a"]), new ScriptAgent({ name: "b" }, ["from b"])],
      }),
    );
    const events = await h.turn("go");
    const byAuthor = Object.fromEntries(events.map((e) => [e.author, e.branch]));
    expect(byAuthor).toEqual({ a: "fanout.a", b: "fanout.b" });
    expect((await h.session()).events.slice(1).map((e) => e.branch)).toEqual(events.map((e) => e.branch));
  });

  it("prefixes the branch it runs on, as ADK does for nested parallel agents", async () => {
    const inner = new ParallelAgent({ name: "inner", subAgents: [new ScriptAgent({ name: "x" }, ["x"])] });
    const outer = new ParallelAgent({ name: "outer", subAgents: [inner] });
    const h = await harness(outer);
    const events = await h.turn("go");
    expect(events.map((e) => e.branch)).toEqual(["outer.inner.inner.x"]);
  });

  it("runs its sub-agents concurrently and interleaves events as they come, each stored before its run goes on", async () => {
    const bSaid = deferred();
    const aSaid = deferred();
    let seenByA: (string | undefined)[] = [];
    // a waits for b's first event, b waits for a's: only concurrent runs get through.
    const a = new ScriptAgent({ name: "a" }, [
      async (ctx) => {
        await bSaid.promise;
        seenByA = said(ctx);
      },
      "a1",
      () => aSaid.resolve(),
    ]);
    const b = new ScriptAgent({ name: "b" }, ["b1", () => bSaid.resolve(), () => aSaid.promise, "b2"]);
    const h = await harness(new ParallelAgent({ name: "fanout", subAgents: [a, b] }));
    const events = await h.turn("go");
    expect(events.map((e) => textOf(e.content))).toEqual(["b1", "a1", "b2"]);
    expect(seenByA).toContain("b1");
  });

  it("isolates histories: a sub-agent's model never sees its sibling's events, the step after sees both", async () => {
    const aStored = deferred();
    const bModel = scriptedModel([{ text: "b answer" }]);
    const summaryModel = scriptedModel([{ text: "summary" }]);
    const fanout = new ParallelAgent({
      name: "fanout",
      subAgents: [
        new ScriptAgent({ name: "a" }, ["secret of a", () => aStored.resolve()]),
        new LlmAgent({
          name: "b",
          model: bModel,
          beforeAgent: async () => {
            await aStored.promise;
          },
        }),
      ],
    });
    const summary = new LlmAgent({ name: "summary", model: summaryModel });
    const h = await harness(new SequentialAgent({ name: "flow", subAgents: [fanout, summary] }));
    await h.turn("question");
    const bPrompt = promptText(bModel.calls[0] ?? ({ prompt: [] } as never));
    expect(bPrompt).toContain("question");
    expect(bPrompt).not.toContain("secret of a");
    const summaryPrompt = promptText(summaryModel.calls[0] ?? ({ prompt: [] } as never));
    expect(summaryPrompt).toContain("[a] said: secret of a");
    expect(summaryPrompt).toContain("[b] said: b answer");
  });

  it("ends the run when one sub-agent fails: its error event is stored and the sibling is stopped", async () => {
    const never = deferred();
    const sibling = new ScriptAgent({ name: "slow" }, ["slow started", () => never.promise, "never said"]);
    const broken = new ScriptAgent({ name: "broken" }, [{ throws: new Error("parallel boom") }]);
    const h = await harness(new ParallelAgent({ name: "fanout", subAgents: [sibling, broken] }));
    const events = await h.turn("go");
    expect(events.at(-1)).toMatchObject({ author: "broken", errorCode: "AGENT_ERROR" });
    expect(events.map((e) => textOf(e.content))).not.toContain("never said");
  });

  it("yields nothing and ends when it has no sub-agents", async () => {
    const h = await harness(new ParallelAgent({ name: "empty" }));
    expect(await h.turn("go")).toEqual([]);
  });
});
