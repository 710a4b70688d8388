import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BaseAgent } from "../../../src/agents/base-agent.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import type { InvocationContext } from "../../../src/agents/invocation-context.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { readToolConfirmation } from "../../../src/agents/tool-confirmation.js";
import { resumeConfirmedCalls, runFunctionCalls } from "../../../src/agents/tool-execution.js";
import type { Event } from "../../../src/core/event.js";
import { harness } from "../support/harness.js";
import { collect, texts } from "../support/run-helpers.js";
import { promptText, scriptedModel } from "../support/scripted-model.js";

function paymentTool(requireConfirmation: boolean | ((args: { amount: number }) => boolean)) {
  const paid: number[] = [];
  const tool = functionTool({
    name: "pay",
    description: "Pays an amount",
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }) => {
      paid.push(amount);
      return { status: "paid", amount };
    },
    requireConfirmation,
  });
  return { tool, paid };
}

const payCall = (amount: number, id = "c1") => ({ calls: [{ name: "pay", args: { amount }, id }] });

/** The user's answer to the confirmation request in `events`. */
function answer(events: readonly Event[], response: Record<string, unknown>) {
  const request = events.find(
    (e) => e.content?.parts?.[0]?.functionCall?.name === "adk_request_confirmation",
  );
  const id = request?.content?.parts?.[0]?.functionCall?.id;
  return {
    userId: "u",
    sessionId: "s",
    newMessage: {
      role: "user",
      parts: [{ functionResponse: { id, name: "adk_request_confirmation", response } }],
    },
  };
}

describe("tool confirmation (requireConfirmation, ADK's adk_request_confirmation)", () => {
  it("pauses before running: a long-running confirmation call holding the original call, then the pending response", async () => {
    const { tool, paid } = paymentTool(true);
    const model = scriptedModel([payCall(5)]);
    const h = await harness(new LlmAgent({ name: "cashier", model, tools: [tool] }));
    const events = await h.turn("pay 5");
    expect(paid).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(events.map((e) => e.author)).toEqual(["cashier", "cashier", "cashier"]);
    const request = events[1];
    const requestCall = request?.content?.parts?.[0]?.functionCall;
    expect(request?.content?.role).toBe("user");
    expect(requestCall).toMatchObject({
      name: "adk_request_confirmation",
      args: {
        originalFunctionCall: { id: "c1", name: "pay", args: { amount: 5 } },
        toolConfirmation: { hint: expect.stringContaining("pay()"), confirmed: false },
      },
    });
    expect(requestCall?.id).toMatch(/^adk-/);
    expect(request?.longRunningToolIds).toEqual([requestCall?.id]);
    expect(events[2]?.content?.parts?.[0]?.functionResponse).toEqual({
      id: "c1",
      name: "pay",
      response: { error: "This tool call requires confirmation, please approve or reject." },
    });
    expect(events[2]?.actions).toMatchObject({
      skipSummarization: true,
      requestedToolConfirmations: { c1: { confirmed: false } },
    });
  });

  it("runs the original call when the user confirms, and the model sees its result in place of the pending one", async () => {
    const { tool, paid } = paymentTool(true);
    const model = scriptedModel([payCall(5), { text: "Paid 5." }]);
    const h = await harness(new LlmAgent({ name: "cashier", model, tools: [tool] }));
    const paused = await h.turn("pay 5");
    const resumed = await collect(h.runner, answer(paused, { confirmed: true }));
    expect(paid).toEqual([5]);
    expect(resumed.map((e) => e.author)).toEqual(["cashier", "cashier"]);
    expect(resumed[0]?.content?.parts?.[0]?.functionResponse).toEqual({
      id: "c1",
      name: "pay",
      response: { status: "paid", amount: 5 },
    });
    expect(texts(resumed).at(-1)).toBe("Paid 5.");
    const prompt = promptText(model.calls[1] ?? ({ prompt: [] } as never));
    expect(prompt).toContain('"status":"paid"');
    expect(prompt).not.toMatch(/requires confirmation|adk_request_confirmation/);
  });

  it("answers a rejected call with an error and never runs it", async () => {
    const { tool, paid } = paymentTool(true);
    const model = scriptedModel([payCall(5), { text: "Not paid." }]);
    const h = await harness(new LlmAgent({ name: "cashier", model, tools: [tool] }));
    const paused = await h.turn("pay 5");
    const resumed = await collect(h.runner, answer(paused, { confirmed: false }));
    expect(paid).toEqual([]);
    expect(resumed[0]?.content?.parts?.[0]?.functionResponse?.response).toEqual({
      error: "This tool call is rejected.",
    });
    expect(texts(resumed).at(-1)).toBe("Not paid.");
  });

  it("reads ADK's client wrapper {response: json}, and treats a malformed answer as a rejection", () => {
    expect(readToolConfirmation({ response: '{"confirmed": true, "payload": {"limit": 9}}' })).toEqual({
      hint: "",
      confirmed: true,
      payload: { limit: 9 },
    });
    expect(readToolConfirmation({ confirmed: "yes" }).confirmed).toBe(false);
    expect(readToolConfirmation({ response: "not json" }).confirmed).toBe(false);
    expect(readToolConfirmation({ confirmed: true, extra: 1 }).confirmed).toBe(false);
  });

  it("asks only when the requireConfirmation function says so", async () => {
    const { tool, paid } = paymentTool(({ amount }) => amount > 100);
    const model = scriptedModel([payCall(5), { text: "done" }, payCall(500, "c2")]);
    const h = await harness(new LlmAgent({ name: "cashier", model, tools: [tool] }));
    await h.turn("pay 5");
    expect(paid).toEqual([5]);
    const big = await h.turn("pay 500");
    expect(paid).toEqual([5]);
    expect(big.some((e) => e.content?.parts?.[0]?.functionCall?.name === "adk_request_confirmation")).toBe(
      true,
    );
  });

  it("routes the answer to the agent that asked, even one that is never sticky", async () => {
    const { tool, paid } = paymentTool(true);
    const payments = new LlmAgent({
      name: "payments",
      description: "Pays",
      disallowTransferToParent: true,
      model: scriptedModel([payCall(7), { text: "payments: done" }]),
      tools: [tool],
    });
    const root = new LlmAgent({
      name: "root",
      model: scriptedModel([{ calls: [{ name: "transfer_to_agent", args: { agent_name: "payments" } }] }]),
      subAgents: [payments],
    });
    const h = await harness(root);
    const paused = await h.turn("pay 7");
    const resumed = await collect(h.runner, answer(paused, { confirmed: true }));
    expect(paid).toEqual([7]);
    expect(resumed.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["payments", undefined],
      ["payments", "payments: done"],
    ]);
  });

  it("asks once for two calls in one model event and runs each by its own answer", async () => {
    const { tool, paid } = paymentTool(true);
    const model = scriptedModel([
      {
        calls: [
          { name: "pay", args: { amount: 1 }, id: "a" },
          { name: "pay", args: { amount: 2 }, id: "b" },
        ],
      },
      { text: "one of two" },
    ]);
    const h = await harness(new LlmAgent({ name: "cashier", model, tools: [tool] }));
    const paused = await h.turn("pay both");
    const request = paused[1];
    const ids = (request?.content?.parts ?? []).map((p) => p.functionCall?.id ?? "");
    expect(request?.longRunningToolIds).toEqual(ids);
    expect(ids).toHaveLength(2);
    const resumed = await collect(h.runner, {
      userId: "u",
      sessionId: "s",
      newMessage: {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: ids[0],
              name: "adk_request_confirmation",
              response: { confirmed: false },
            },
          },
          {
            functionResponse: { id: ids[1], name: "adk_request_confirmation", response: { confirmed: true } },
          },
        ],
      },
    });
    expect(paid).toEqual([2]);
    expect(resumed[0]?.content?.parts?.map((p) => p.functionResponse?.response)).toEqual([
      { error: "This tool call is rejected." },
      { status: "paid", amount: 2 },
    ]);
  });

  it("gives a tool that asks through its context the user's payload when it runs again", async () => {
    const seen: unknown[] = [];
    const transfer = functionTool({
      name: "wire",
      description: "Wires money",
      parameters: z.object({}),
      execute: (_args, ctx) => {
        if (!ctx.toolConfirmation) {
          ctx.requestConfirmation({ hint: "Which account?", payload: { account: "" } });
          return { status: "asked" };
        }
        seen.push(ctx.toolConfirmation.payload);
        return { status: "wired" };
      },
    });
    const model = scriptedModel([{ calls: [{ name: "wire", args: {}, id: "w1" }] }, { text: "ok" }]);
    const h = await harness(new LlmAgent({ name: "bank", model, tools: [transfer] }));
    const paused = await h.turn("wire it");
    expect(paused[1]?.content?.parts?.[0]?.functionCall?.args?.toolConfirmation).toEqual({
      hint: "Which account?",
      confirmed: false,
      payload: { account: "" },
    });
    await collect(h.runner, answer(paused, { confirmed: true, payload: { account: "NL01" } }));
    expect(seen).toEqual([{ account: "NL01" }]);
  });
});

/** A non-LLM agent kind that calls one tool per turn through the shared confirmation API. */
class ToolLoopAgent extends BaseAgent {
  readonly transferPolicy = undefined;
  readonly tools: ReturnType<typeof paymentTool>;
  constructor(name: string, tools: ReturnType<typeof paymentTool>) {
    super({ name });
    this.tools = tools;
  }
  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    const tools = new Map([["pay", this.tools.tool]]);
    const resumed = await resumeConfirmedCalls(ctx, this, tools, {});
    if (resumed) {
      yield resumed;
      return;
    }
    const calls = [{ id: "k1", name: "pay", args: { amount: 3 } }];
    yield ctx.newEvent({ content: { role: "model", parts: [{ functionCall: calls[0] }] } });
    yield* runFunctionCalls(ctx, this, calls, tools, {});
  }
}

describe("the confirmation API other agent kinds use", () => {
  it("pauses and resumes a non-LLM agent's tool call with runFunctionCalls and resumeConfirmedCalls", async () => {
    const tools = paymentTool(true);
    const h = await harness(new ToolLoopAgent("looper", tools));
    const paused = await h.turn("pay 3");
    expect(paused.map((e) => e.content?.parts?.[0]?.functionCall?.name ?? "response")).toEqual([
      "pay",
      "adk_request_confirmation",
      "response",
    ]);
    const resumed = await collect(h.runner, answer(paused, { confirmed: true }));
    expect(tools.paid).toEqual([3]);
    expect(resumed[0]?.content?.parts?.[0]?.functionResponse?.response).toEqual({
      status: "paid",
      amount: 3,
    });
  });
});
