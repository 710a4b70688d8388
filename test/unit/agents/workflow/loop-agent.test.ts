import { describe, expect, it } from "vitest";
import { exitLoop } from "../../../../src/agents/exit-loop-tool.js";
import { LlmAgent } from "../../../../src/agents/llm-agent.js";
import { LoopAgent } from "../../../../src/agents/loop-agent.js";
import { SequentialAgent } from "../../../../src/agents/sequential-agent.js";
import { harness } from "../../support/harness.js";
import { texts } from "../../support/run-helpers.js";
import { ScriptAgent } from "../../support/script-agent.js";
import { scriptedModel } from "../../support/scripted-model.js";

describe("LoopAgent", () => {
  it("runs its sub-agents round after round and stops after maxIterations", async () => {
    const loop = new LoopAgent({
      name: "loop",
      maxIterations: 3,
      subAgents: [new ScriptAgent({ name: "a" }, ["a"]), new ScriptAgent({ name: "b" }, ["b"])],
    });
    const h = await harness(loop);
    expect(texts(await h.turn("go"))).toEqual(["a", "b", "a", "b", "a", "b"]);
  });

  it("stops on an escalating event: the escalating sub-agent finishes, the rest of the round is skipped", async () => {
    let round = 0;
    const counter = new ScriptAgent({ name: "counter" }, [
      () => {
        round += 1;
      },
      "tick",
    ]);
    const judge = new LlmAgent({
      name: "judge",
      model: scriptedModel((i) =>
        i === 0 ? { text: "again" } : { calls: [{ name: "exit_loop", args: {} }] },
      ),
      tools: [exitLoop],
    });
    const skipped = new ScriptAgent({ name: "after_judge" }, ["after"]);
    const h = await harness(new LoopAgent({ name: "loop", subAgents: [counter, judge, skipped] }));
    const events = await h.turn("go");
    expect(events.map((e) => e.author)).toEqual([
      "counter",
      "judge",
      "after_judge",
      "counter",
      "judge",
      "judge",
    ]);
    expect(round).toBe(2);
    const exit = events.at(-1);
    expect(exit?.content?.parts?.[0]?.functionResponse).toMatchObject({
      name: "exit_loop",
      response: { result: null },
    });
    expect(exit?.actions).toMatchObject({ escalate: true, skipSummarization: true });
  });

  it("lets the escalating agent finish its own run before the loop ends", async () => {
    const h = await harness(
      new LoopAgent({
        name: "loop",
        maxIterations: 5,
        subAgents: [
          new ScriptAgent({ name: "a" }, [{ escalate: "stop" }, "still a"]),
          new ScriptAgent({ name: "b" }, ["b"]),
        ],
      }),
    );
    expect(texts(await h.turn("go"))).toEqual(["stop", "still a"]);
  });

  it("exit_loop ends every enclosing loop", async () => {
    const inner = new LoopAgent({
      name: "inner",
      subAgents: [
        new LlmAgent({
          name: "quitter",
          model: scriptedModel([{ calls: [{ name: "exit_loop", args: {} }] }]),
          tools: [exitLoop],
        }),
      ],
    });
    const outer = new LoopAgent({
      name: "outer",
      maxIterations: 10,
      subAgents: [inner, new ScriptAgent({ name: "tail" }, ["tail"])],
    });
    const h = await harness(new SequentialAgent({ name: "main", subAgents: [outer] }));
    const events = await h.turn("go");
    expect(events.map((e) => e.author)).toEqual(["quitter", "quitter"]);
  });

  it("ends with the invocation's model-call limit when nothing escalates and there is no maxIterations", async () => {
    const chatter = new LlmAgent({ name: "chatter", model: scriptedModel([{ text: "more" }]) });
    const h = await harness(new LoopAgent({ name: "loop", subAgents: [chatter] }), { maxLlmCalls: 4 });
    const events = await h.turn("go");
    expect(texts(events).slice(0, 4)).toEqual(["more", "more", "more", "more"]);
    expect(events.at(-1)).toMatchObject({ author: "chatter", errorCode: "LLM_CALLS_LIMIT_EXCEEDED" });
  });

  it("yields nothing when it has no sub-agents, instead of spinning", async () => {
    const h = await harness(new LoopAgent({ name: "empty" }));
    expect(await h.turn("go")).toEqual([]);
  });

  it("rejects a negative or fractional maxIterations", () => {
    expect(() => new LoopAgent({ name: "bad", maxIterations: -1 })).toThrow(/maxIterations/);
    expect(() => new LoopAgent({ name: "bad", maxIterations: 1.5 })).toThrow(/maxIterations/);
  });
});
