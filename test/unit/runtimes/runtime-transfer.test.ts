import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { transferTargets } from "../../../src/router/transfer-targets.js";
import { RuntimeAgent } from "../../../src/runtimes/runtime-agent.js";
import { transferInstruction } from "../../../src/transfer/transfer-instruction.js";
import { harness } from "../support/harness.js";
import { scriptedModel } from "../support/scripted-model.js";
import { RUNTIME_KITS } from "./runtime-kits.js";

const transferTo = (agent_name: string, text?: string) => ({
  calls: [{ name: "transfer_to_agent", args: { agent_name } }],
  ...(text === undefined ? {} : { text }),
});
const worker = (name: string, answer = `${name} answers`) =>
  new LlmAgent({ name, description: `The ${name}`, model: scriptedModel([{ text: answer }]) });
const responses = (events: readonly Event[]) =>
  events.flatMap((e) =>
    (e.content?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])),
  );

describe.each(RUNTIME_KITS)("$name: transfer with ADK semantics", (kit) => {
  it("offers transfer_to_agent with an enum of the agent's targets: children, then parent, then peers", async () => {
    const planner = kit.scripted([{ text: "planned" }]);
    const plannerAgent = new RuntimeAgent({
      name: "planner",
      description: "Plans",
      runtime: planner.runtime,
      subAgents: [worker("drafter")],
    });
    const root = new RuntimeAgent({
      name: "root",
      runtime: kit.scripted([transferTo("planner")]).runtime,
      subAgents: [plannerAgent, worker("coder"), worker("reviewer")],
    });
    const h = await harness(root);
    await h.turn("plan it");
    expect(planner.requests()[0]?.transferEnum).toEqual(["drafter", "root", "coder", "reviewer"]);
    expect(transferTargets(plannerAgent).map((t) => t.name)).toEqual([
      "drafter",
      "root",
      "coder",
      "reviewer",
    ]);
  });

  it("leaves out peers and parent when the flags forbid them, and offers no tool without targets", async () => {
    const lone = kit.scripted([{ text: "alone" }]);
    const flagged = kit.scripted([{ text: "flagged" }]);
    const h1 = await harness(new RuntimeAgent({ name: "lone", runtime: lone.runtime }));
    await h1.turn("hi");
    expect(lone.requests()[0]?.toolNames).not.toContain("transfer_to_agent");
    expect(lone.requests()[0]?.system).not.toContain("transfer_to_agent");
    const child = new RuntimeAgent({
      name: "child",
      runtime: flagged.runtime,
      disallowTransferToPeers: true,
      subAgents: [worker("grandchild")],
    });
    const root = new RuntimeAgent({
      name: "root",
      runtime: kit.scripted([transferTo("child")]).runtime,
      subAgents: [child, worker("peer")],
    });
    await (await harness(root)).turn("go");
    expect(flagged.requests()[0]?.transferEnum).toEqual(["grandchild", "root"]);
  });

  it("adds identity, the agent's own instruction and ADK's transfer block to the runtime's system prompt", async () => {
    const rt = kit.scripted([{ text: "hello" }]);
    const root = new RuntimeAgent({
      name: "root",
      description: "Routes people",
      instruction: "Greet {user_name}.",
      runtime: rt.runtime,
      subAgents: [worker("billing"), worker("support")],
    });
    const h = await harness(root);
    await h.turn("hi", { stateDelta: { user_name: "Ada" } });
    const system = rt.requests()[0]?.system ?? "";
    expect(system).toContain('Your internal name is "root". The description about you is "Routes people".');
    expect(system).toContain("Greet Ada.");
    expect(system).toContain(transferInstruction(root, transferTargets(root)));
    expect(system.indexOf("Greet Ada.")).toBeLessThan(system.indexOf("Your internal name"));
  });

  it("stops its loop when it transfers and the target answers in the same invocation, the root's model called once", async () => {
    const rt = kit.scripted([transferTo("worker"), { text: "a second root reply must never happen" }]);
    const workerModel = scriptedModel([{ text: "worker here" }]);
    const root = new RuntimeAgent({
      name: "root",
      runtime: rt.runtime,
      subAgents: [new LlmAgent({ name: "worker", description: "Does the work", model: workerModel })],
    });
    const h = await harness(root);
    const events = await h.turn("help");
    expect(rt.requests()).toHaveLength(1);
    expect(workerModel.calls).toHaveLength(1);
    expect(events.map((e) => e.author)).toEqual(["root", "root", "worker"]);
    expect(new Set(events.map((e) => e.invocationId)).size).toBe(1);
    expect(events[0]?.content?.parts?.map((p) => p.functionCall?.name)).toEqual(["transfer_to_agent"]);
    expect(events[1]?.actions.transferToAgent).toBe("worker");
    expect(responses(events)).toEqual([
      expect.objectContaining({
        name: "transfer_to_agent",
        response: { status: "transferred", agent_name: "worker" },
      }),
    ]);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("worker here");
    const stored = (await h.session()).events;
    expect(stored.map((e) => e.author)).toEqual(["user", "root", "root", "worker"]);
  });

  it.each(["planner", "coder", "reviewer"])("reaches the sub-agent %s by name", async (name) => {
    const root = new RuntimeAgent({
      name: "root",
      runtime: kit.scripted([transferTo(name)]).runtime,
      subAgents: [worker("planner"), worker("coder"), worker("reviewer")],
    });
    const h = await harness(root);
    const events = await h.turn("route me");
    expect(events.at(-1)?.author).toBe(name);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe(`${name} answers`);
    const next = await h.turn("and again");
    expect(next.map((e) => e.author)).toEqual([name]);
  });

  it("answers a bad target with an error naming the valid targets, does not transfer, and lets the loop try again", async () => {
    const rt = kit.scripted([transferTo("nobody"), { text: "I will answer myself" }]);
    const root = new RuntimeAgent({
      name: "root",
      runtime: rt.runtime,
      subAgents: [worker("billing"), worker("support")],
    });
    const h = await harness(root);
    const events = await h.turn("help");
    expect(rt.requests()).toHaveLength(2);
    expect(events.map((e) => e.author)).toEqual(["root", "root", "root"]);
    expect(events.some((e) => e.actions.transferToAgent !== undefined)).toBe(false);
    const error = String(responses(events)[0]?.response.error);
    expect(error).toContain("nobody");
    expect(error).toContain("`billing`, `support`");
    expect(rt.requests()[1]?.text).toContain("`billing`, `support`");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("I will answer myself");
  });

  it("drops the text it wrote beside a transfer, so no router text is stored or shown", async () => {
    const rt = kit.scripted([transferTo("worker", "Let me route you to our worker!")]);
    const h = await harness(
      new RuntimeAgent({ name: "root", runtime: rt.runtime, subAgents: [worker("worker", "done")] }),
    );
    const events = await h.turn("help");
    const stored = (await h.session()).events;
    for (const list of [events, stored]) {
      const rootText = list
        .filter((e) => e.author === "root")
        .flatMap((e) => (e.content?.parts ?? []).flatMap((p) => (p.text === undefined ? [] : [p.text])));
      expect(rootText).toEqual([]);
    }
    expect(JSON.stringify(stored)).not.toContain("Let me route you");
  });

  it("writes outputKey from its final text, and still does when its tool-using turn ends", async () => {
    const rt = kit.scripted([{ text: "the summary" }]);
    const h = await harness(new RuntimeAgent({ name: "root", runtime: rt.runtime, outputKey: "summary" }));
    const events = await h.turn("summarise");
    expect(events.at(-1)?.actions.stateDelta).toEqual({ summary: "the summary" });
    expect((await h.session()).state.summary).toBe("the summary");
  });

  it("keeps writing outputKey on a target after a transfer, and never on the transferring agent's call", async () => {
    const root = new RuntimeAgent({
      name: "root",
      runtime: kit.scripted([transferTo("writer", "routing…")]).runtime,
      outputKey: "root_out",
      subAgents: [
        new RuntimeAgent({
          name: "writer",
          runtime: kit.scripted([{ text: "the draft" }]).runtime,
          outputKey: "draft",
        }),
      ],
    });
    const h = await harness(root);
    await h.turn("write");
    const state = (await h.session()).state;
    expect(state.draft).toBe("the draft");
    expect(state.root_out).toBeUndefined();
  });

  it("gives the next turn to a target that failed before it yielded anything", async () => {
    const rt = kit.scripted([transferTo("worker")]);
    const workerModel = scriptedModel([{ fail: 400, message: "bad request" }, { text: "worker is back" }]);
    const root = new RuntimeAgent({
      name: "root",
      runtime: rt.runtime,
      subAgents: [new LlmAgent({ name: "worker", description: "Works", model: workerModel })],
    });
    const h = await harness(root);
    const first = await h.turn("help");
    expect(first.map((e) => e.author)).toEqual(["root", "root", "worker"]);
    expect(first.at(-1)?.errorCode).toBeDefined();
    expect(first.at(-1)?.content).toBeUndefined();
    const second = await h.turn("again");
    expect(second.map((e) => e.author)).toEqual(["worker"]);
    expect(second[0]?.content?.parts?.[0]?.text).toBe("worker is back");
    expect(rt.requests()).toHaveLength(1);
  });

  it("gives the next turn to a runtime target whose own model failed before it yielded", async () => {
    const target = kit.scripted([
      { throws: new Error("runtime model down") },
      { text: "runtime target is back" },
    ]);
    const root = new LlmAgent({
      name: "root",
      model: scriptedModel([transferTo("helper")]),
      subAgents: [new RuntimeAgent({ name: "helper", description: "Helps", runtime: target.runtime })],
    });
    const h = await harness(root);
    const first = await h.turn("help");
    expect(first.map((e) => e.author)).toEqual(["root", "root", "helper"]);
    expect(first.at(-1)?.errorMessage).toContain("runtime model down");
    const second = await h.turn("again");
    expect(second.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["helper", "runtime target is back"],
    ]);
  });

  it("runs a runtime target once when an LlmAgent transfers to it", async () => {
    const target = kit.scripted([{ text: "runtime answers" }]);
    const root = new LlmAgent({
      name: "root",
      model: scriptedModel([transferTo("helper")]),
      subAgents: [new RuntimeAgent({ name: "helper", description: "Helps", runtime: target.runtime })],
    });
    const h = await harness(root);
    const events = await h.turn("help");
    expect(events.map((e) => e.author)).toEqual(["root", "root", "helper"]);
    expect(target.requests()).toHaveLength(1);
    expect(target.requests()[0]?.text).toContain("[root] called tool `transfer_to_agent`");
  });
});
