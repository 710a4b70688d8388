import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BaseAgent } from "../../../src/agents/base-agent.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import type { InvocationContext } from "../../../src/agents/invocation-context.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { harness } from "../support/harness.js";
import { promptText, scriptedModel } from "../support/scripted-model.js";

const transferTo = (agent_name: string) => ({ calls: [{ name: "transfer_to_agent", args: { agent_name } }] });

/** An agent that takes part in transfer but yields nothing (ADK T12). */
class SilentAgent extends BaseAgent {
  readonly transferPolicy = { disallowTransferToParent: false, disallowTransferToPeers: false };
  protected override async *runImpl(_ctx: InvocationContext): AsyncGenerator<Event> {
    // yields nothing, on purpose
  }
}

describe("transfer within one invocation (ADK-SEMANTICS §3.4)", () => {
  it("T09: stores root's call, root's response with transferToAgent, then the target's answer, all in one invocation", async () => {
    const rootModel = scriptedModel([transferTo("billing")]);
    const billing = new LlmAgent({
      name: "billing",
      description: "Invoices",
      model: scriptedModel([{ text: "Your invoice" }]),
    });
    const h = await harness(new LlmAgent({ name: "root", model: rootModel, subAgents: [billing] }));
    const events = await h.turn("my invoice?");
    expect(events.map((e) => e.author)).toEqual(["root", "root", "billing"]);
    expect(new Set(events.map((e) => e.invocationId)).size).toBe(1);
    expect(events[0]?.invocationId).toMatch(/^e-/);
    expect(rootModel.calls).toHaveLength(1);
    expect((await h.session()).events.map((e) => e.author)).toEqual(["user", "root", "root", "billing"]);
  });

  it("offers transfer_to_agent with an enum of the caller's targets and the instruction block", async () => {
    const rootModel = scriptedModel([{ text: "hi" }]);
    const billing = new LlmAgent({ name: "billing", description: "Invoices and refunds", model: rootModel });
    const h = await harness(new LlmAgent({ name: "root", model: rootModel, subAgents: [billing] }));
    await h.turn("hello");
    const call = rootModel.calls[0];
    const tool = call?.tools?.find((t) => t.name === "transfer_to_agent");
    expect(tool && "inputSchema" in tool ? tool.inputSchema : undefined).toMatchObject({
      properties: { agent_name: { enum: ["billing"] } },
    });
    expect(promptText(call ?? ({ prompt: [] } as never))).toContain("Invoices and refunds");
  });

  it("T12: the transferring agent calls its model again when the target yields nothing", async () => {
    const rootModel = scriptedModel([transferTo("silent"), { text: "I'll answer then" }]);
    const h = await harness(
      new LlmAgent({ name: "root", model: rootModel, subAgents: [new SilentAgent({ name: "silent" })] }),
    );
    const events = await h.turn("hi");
    expect(rootModel.calls).toHaveLength(2);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("I'll answer then");
  });

  it("T13: parallel transfer and tool calls give one merged response, then the target runs", async () => {
    const lookup = functionTool({
      name: "lookup",
      description: "",
      parameters: z.object({}),
      execute: () => ({ found: 1 }),
    });
    const rootModel = scriptedModel([
      {
        calls: [
          { name: "transfer_to_agent", args: { agent_name: "billing" } },
          { name: "lookup", args: {} },
        ],
      },
    ]);
    const billing = new LlmAgent({ name: "billing", model: scriptedModel([{ text: "billing here" }]) });
    const h = await harness(
      new LlmAgent({ name: "root", model: rootModel, tools: [lookup], subAgents: [billing] }),
    );
    const events = await h.turn("hi");
    const merged = events[1];
    expect(merged?.content?.parts?.map((p) => p.functionResponse?.name)).toEqual([
      "transfer_to_agent",
      "lookup",
    ]);
    expect(merged?.actions.transferToAgent).toBe("billing");
    expect(events.at(-1)?.author).toBe("billing");
  });

  it("T10/T11: a transfer to a peer the caller may not reach is refused with an error response", async () => {
    const soloModel = scriptedModel([transferTo("billing"), { text: "staying" }]);
    const solo = new LlmAgent({ name: "solo", model: soloModel, disallowTransferToPeers: true });
    const billing = new LlmAgent({ name: "billing", model: scriptedModel([{ text: "never" }]) });
    const root = new LlmAgent({
      name: "root",
      model: scriptedModel([transferTo("solo")]),
      subAgents: [solo, billing],
    });
    const h = await harness(root);
    const events = await h.turn("hi");
    const refused = events.find((e) => e.author === "solo" && e.content?.role === "user");
    expect(refused?.actions.transferToAgent).toBeUndefined();
    expect(refused?.content?.parts?.[0]?.functionResponse?.response.error).toContain("root");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("staying");
    expect(events.some((e) => e.author === "billing")).toBe(false);
  });

  it("T16: root's afterAgent state write after the target's answer wins the next turn's routing", async () => {
    const rootModel = scriptedModel([transferTo("billing"), { text: "root again" }]);
    const billing = new LlmAgent({ name: "billing", model: scriptedModel([{ text: "billing answer" }]) });
    const root = new LlmAgent({
      name: "root",
      model: rootModel,
      subAgents: [billing],
      afterAgent: (ctx) => void ctx.state.set("visits", 1),
    });
    const h = await harness(root);
    const turn1 = await h.turn("invoice");
    expect(turn1.map((e) => e.author)).toEqual(["root", "root", "billing", "root"]);
    const turn2 = await h.turn("again");
    expect(turn2[0]?.author).toBe("root");
  });

  it("re-frames other agents' events as 'For context:' for the target", async () => {
    const billingModel = scriptedModel([{ text: "ok" }]);
    const billing = new LlmAgent({ name: "billing", model: billingModel });
    const h = await harness(
      new LlmAgent({ name: "root", model: scriptedModel([transferTo("billing")]), subAgents: [billing] }),
    );
    await h.turn("my invoice");
    const prompt = promptText(billingModel.calls[0] ?? ({ prompt: [] } as never));
    expect(prompt).toContain("For context:");
    expect(prompt).toContain(
      "[root] called tool `transfer_to_agent` with parameters: {'agent_name': 'billing'}",
    );
    expect(prompt).toContain("[root] `transfer_to_agent` tool returned result: {'result': None}");
  });

  it("T14: includeContents 'none' after a transfer shows the current user message and the transfer, not older turns", async () => {
    const billingModel = scriptedModel([{ text: "ok" }]);
    const billing = new LlmAgent({ name: "billing", model: billingModel, includeContents: "none" });
    const rootModel = scriptedModel([{ text: "routing…" }, transferTo("billing")]);
    const h = await harness(new LlmAgent({ name: "root", model: rootModel, subAgents: [billing] }));
    await h.turn("first question U1");
    await h.turn("second question U2");
    const prompt = promptText(billingModel.calls[0] ?? ({ prompt: [] } as never));
    expect(prompt).toContain("second question U2");
    expect(prompt).toContain("transfer_to_agent");
    expect(prompt).not.toContain("first question U1");
  });
});
