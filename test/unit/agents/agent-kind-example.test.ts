import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { KeywordRouter } from "../fixtures/keyword-router.js";
import { harness } from "../support/harness.js";
import { texts } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

/** The example of docs/adding-an-agent-kind.md: a rule-based root with an LlmAgent below it. */
function desk() {
  const billingModel = scriptedModel([
    { text: "Your refund is on its way." },
    { calls: [{ name: "transfer_to_agent", args: { agent_name: "desk" } }] },
  ]);
  const billing = new LlmAgent({ name: "billing", description: "Refunds", model: billingModel });
  return {
    root: new KeywordRouter({ name: "desk", rules: { refund: "billing" }, subAgents: [billing] }),
    billingModel,
  };
}

describe("an agent kind of its own (docs/adding-an-agent-kind.md)", () => {
  it("transfers to an LlmAgent through the shared hand-off, in the same invocation", async () => {
    const { root } = desk();
    const h = await harness(root);
    const events = await h.turn("I want a refund");
    expect(events.map((e) => e.author)).toEqual(["desk", "desk", "billing"]);
    expect(new Set(events.map((e) => e.invocationId)).size).toBe(1);
    const [call, response] = events;
    const callId = call?.content?.parts?.[0]?.functionCall?.id;
    expect(callId).toMatch(/^adk-/);
    expect(call?.content?.parts?.[0]?.functionCall).toEqual({
      id: callId,
      name: "transfer_to_agent",
      args: { agent_name: "billing" },
    });
    expect(response?.content?.parts?.[0]?.functionResponse).toEqual({
      id: callId,
      name: "transfer_to_agent",
      response: { result: null },
    });
    expect(response?.actions.transferToAgent).toBe("billing");
    expect(texts(events).at(-1)).toBe("Your refund is on its way.");
  });

  it("gets the turn back when the LlmAgent transfers to it, and decides by its rules again", async () => {
    const { root, billingModel } = desk();
    const h = await harness(root);
    await h.turn("I want a refund");
    // billing sticks, so it takes the next turn; its model hands the question back to the desk.
    const events = await h.turn("What's the weather?");
    expect(billingModel.calls).toHaveLength(2);
    expect(events.map((e) => e.author)).toEqual(["billing", "billing", "desk"]);
    expect(events[1]?.actions.transferToAgent).toBe("desk");
    expect(texts(events).at(-1)).toBe("No rule matched.");
    const stored = (await h.session()).events.map((e) => e.author);
    expect(stored).toEqual(["user", "desk", "desk", "billing", "user", "billing", "billing", "desk"]);
  });

  it("fails the turn with a coded error when a rule names an agent that is not a target", async () => {
    const h = await harness(new KeywordRouter({ name: "desk", rules: { refund: "nobody" } }));
    const events = await h.turn("refund");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author: "desk", errorCode: "AGENT_ERROR" });
    expect(events[0]?.errorMessage).toMatch(/Cannot transfer to "nobody"/);
  });
});
