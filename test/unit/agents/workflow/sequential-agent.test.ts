import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../../src/agents/llm-agent.js";
import { SequentialAgent } from "../../../../src/agents/sequential-agent.js";
import { findAgentToRun } from "../../../../src/router/find-agent-to-run.js";
import { harness } from "../../support/harness.js";
import { texts } from "../../support/run-helpers.js";
import { ScriptAgent } from "../../support/script-agent.js";
import { promptText, scriptedModel } from "../../support/scripted-model.js";

describe("SequentialAgent", () => {
  it("runs its sub-agents in declared order, in one invocation, on the caller's branch", async () => {
    const pipeline = new SequentialAgent({
      name: "pipeline",
      subAgents: [
        new ScriptAgent({ name: "first" }, ["one", "two"]),
        new ScriptAgent({ name: "second" }, ["three"]),
      ],
    });
    const h = await harness(pipeline);
    const events = await h.turn("go");
    expect(events.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["first", "one"],
      ["first", "two"],
      ["second", "three"],
    ]);
    expect(new Set(events.map((e) => e.invocationId)).size).toBe(1);
    expect(events.every((e) => e.branch === undefined)).toBe(true);
  });

  it("hands one step's output_key to the next step's {key} instruction and history", async () => {
    const writerModel = scriptedModel([{ text: "a haiku about rain" }]);
    const reviewerModel = scriptedModel([{ text: "lovely" }]);
    const pipeline = new SequentialAgent({
      name: "pipeline",
      subAgents: [
        new LlmAgent({ name: "writer", model: writerModel, outputKey: "draft" }),
        new LlmAgent({ name: "reviewer", model: reviewerModel, instruction: "Review this draft: {draft}" }),
      ],
    });
    const h = await harness(pipeline);
    const events = await h.turn("write");
    expect(events[0]?.actions.stateDelta).toEqual({ draft: "a haiku about rain" });
    const reviewerPrompt = reviewerModel.calls[0]?.prompt ?? [];
    expect(reviewerPrompt[0]).toMatchObject({ role: "system" });
    expect(JSON.stringify(reviewerPrompt[0])).toContain("Review this draft: a haiku about rain");
    expect(promptText({ prompt: reviewerPrompt } as never)).toContain("[writer] said: a haiku about rain");
    expect((await h.session()).state.draft).toBe("a haiku about rain");
  });

  it("stops at a failing step: the error event is authored by it and later steps never run", async () => {
    const later = new ScriptAgent({ name: "later" }, ["never"]);
    const pipeline = new SequentialAgent({
      name: "pipeline",
      subAgents: [new ScriptAgent({ name: "broken" }, ["started", { throws: new Error("boom") }]), later],
    });
    const h = await harness(pipeline);
    const events = await h.turn("go");
    expect(events.map((e) => e.author)).toEqual(["broken", "broken"]);
    expect(events[1]).toMatchObject({ errorCode: "AGENT_ERROR" });
    expect(later.runs).toBe(0);
  });

  it("is a transfer target of an LLM parent, runs in the same invocation, and the next turn goes back to the parent", async () => {
    const pipeline = new SequentialAgent({
      name: "pipeline",
      description: "Writes and reviews",
      subAgents: [new LlmAgent({ name: "step1", model: scriptedModel([{ text: "step one done" }]) })],
    });
    const rootModel = scriptedModel([
      { calls: [{ name: "transfer_to_agent", args: { agent_name: "pipeline" } }] },
      { text: "root again" },
    ]);
    const root = new LlmAgent({ name: "root", model: rootModel, subAgents: [pipeline] });
    const h = await harness(root);
    const first = await h.turn("run the pipeline");
    expect(first.map((e) => e.author)).toEqual(["root", "root", "step1"]);
    expect(first[1]?.actions.transferToAgent).toBe("pipeline");
    expect(findAgentToRun((await h.session()).events, root).name).toBe("root");
    expect(texts(await h.turn("and now?"))).toEqual(["root again"]);
  });

  it("offers a step no transfer to its workflow parent or peers, only to its own sub-agents, and goes on after one", async () => {
    const helperModel = scriptedModel([{ text: "helped" }]);
    const step1Model = scriptedModel([
      { calls: [{ name: "transfer_to_agent", args: { agent_name: "helper" } }] },
    ]);
    const step1 = new LlmAgent({
      name: "step1",
      model: step1Model,
      subAgents: [new LlmAgent({ name: "helper", model: helperModel })],
    });
    const pipeline = new SequentialAgent({
      name: "pipeline",
      subAgents: [step1, new ScriptAgent({ name: "step2" }, ["step two"])],
    });
    const h = await harness(pipeline);
    const events = await h.turn("go");
    const tool = step1Model.calls[0]?.tools?.find((t) => t.name === "transfer_to_agent");
    expect(tool && "inputSchema" in tool ? tool.inputSchema : undefined).toMatchObject({
      properties: { agent_name: { enum: ["helper"] } },
    });
    expect(events.map((e) => e.author)).toEqual(["step1", "step1", "helper", "step2"]);
  });

  it("rejects a transfer from a step to its peer: the peer is not among its targets", async () => {
    const step1Model = scriptedModel([
      { calls: [{ name: "transfer_to_agent", args: { agent_name: "step2" } }] },
      { text: "ok, myself then" },
    ]);
    const pipeline = new SequentialAgent({
      name: "pipeline",
      subAgents: [
        new LlmAgent({ name: "step1", model: step1Model }),
        new ScriptAgent({ name: "step2" }, ["step two"]),
      ],
    });
    const h = await harness(pipeline);
    const events = await h.turn("go");
    expect(events[1]?.content?.parts?.[0]?.functionResponse?.response).toHaveProperty("error");
    expect(events[1]?.actions.transferToAgent).toBeUndefined();
    expect(texts(events).slice(2)).toEqual(["ok, myself then", "step two"]);
  });
});
