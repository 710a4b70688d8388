import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { SequentialAgent } from "../../../src/agents/sequential-agent.js";
import { defineApp } from "../../../src/runner/app.js";
import { node } from "../../../src/workflow/build-node.js";
import type { NodeContext } from "../../../src/workflow/node-context.js";
import { RequestInput } from "../../../src/workflow/request-input.js";
import { Workflow } from "../../../src/workflow/workflow.js";
import { harness } from "../support/harness.js";
import { scriptedModel } from "../support/scripted-model.js";
import { answer, interruptOf, lines, send, visible } from "./workflow-helpers.js";

const fn = (name: string, body: (ctx: NodeContext, input: never) => unknown, settings = {}) =>
  node(body, { name, ...settings });

describe("a workflow in an agent tree", () => {
  it("runs as a transfer target of an LlmAgent, and the next turn goes back to the LlmAgent (never sticky)", async () => {
    const steps = new Workflow({
      name: "steps",
      description: "Runs the steps.",
      edges: [["START", fn("one", () => "1")]],
    });
    const model = scriptedModel([
      { calls: [{ name: "transfer_to_agent", args: { agent_name: "steps" } }] },
      { text: "back" },
    ]);
    const h = await harness(new LlmAgent({ name: "root", model, subAgents: [steps] }));
    const first = visible(await h.turn("go"));
    expect(first.at(-1)).toMatchObject({ author: "one", output: "1", nodeInfo: { path: "steps/one" } });
    expect(lines(await h.turn("again"))).toEqual(["root@- back"]);
  });

  it("routes the answer to a question asked in a workflow to that workflow, not to the LlmAgent above it", async () => {
    const ask = fn("ask", () => new RequestInput({ message: "Sure?" }));
    const done = fn("done", (_c, reply: unknown) => `done: ${String(reply)}`);
    const flow = new Workflow({ name: "flow", edges: [["START", ask, done]] });
    const model = scriptedModel([
      { calls: [{ name: "transfer_to_agent", args: { agent_name: "flow" } }] },
      { text: "root answered" },
    ]);
    const h = await harness(new LlmAgent({ name: "root", model, subAgents: [flow] }));
    const id = interruptOf(await h.turn("start"));
    expect(lines(await send(h.runner, answer(id, { result: "yes" })))).toEqual([
      'done@flow/done done: yes => "done: yes"',
    ]);
    expect(model.calls).toHaveLength(1);
  });

  it("runs as one step of a SequentialAgent, which goes on after it", async () => {
    const flow = new Workflow({ name: "flow", edges: [["START", fn("a", () => "A")]] });
    const after = new LlmAgent({ name: "after", model: scriptedModel([{ text: "after the flow" }]) });
    const h = await harness(new SequentialAgent({ name: "seq", subAgents: [flow, after] }));
    expect(lines(await h.turn("go"))).toEqual(['a@flow/a A => "A"', "after@- after the flow"]);
  });

  it("reads the shared state scopes its nodes may touch, and none for a graph of joins and declared nodes", () => {
    const reader = new LlmAgent({ name: "reader", model: "demo:", instruction: "Hello {user:name}." });
    const quiet = fn("quiet", () => 1, { stateScopes: [] });
    const scoped = defineApp({
      name: "a",
      rootAgent: new Workflow({ name: "w", edges: [["START", quiet, reader]] }),
    });
    expect(scoped.stateScopes).toEqual(["user"]);
    const none = defineApp({
      name: "b",
      rootAgent: new Workflow({ name: "w", edges: [["START", fn("q", () => 1, { stateScopes: [] })]] }),
    });
    expect(none.stateScopes).toEqual([]);
    const opaque = defineApp({
      name: "c",
      rootAgent: new Workflow({ name: "w", edges: [["START", fn("any", () => 1)]] }),
    });
    expect(opaque.stateScopes).toEqual(["app", "user"]);
  });
});
