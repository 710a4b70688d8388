import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { SequentialAgent } from "../../../src/agents/sequential-agent.js";
import type { Content } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import { aiSdkRuntime } from "../../../src/runtimes/ai-sdk-runtime.js";
import { RuntimeAgent } from "../../../src/runtimes/runtime-agent.js";
import { harness } from "../support/harness.js";
import { collect, texts } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";
import { RUNTIME_KITS } from "./runtime-kits.js";

const responses = (events: readonly Event[]) =>
  events.flatMap((e) =>
    (e.content?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])),
  );
const call = (name: string, args: Record<string, unknown>, id = `call-${name}`) => ({
  calls: [{ name, args, id }],
});

function weatherTool(log: string[]) {
  return functionTool({
    name: "weather",
    description: "Weather in a city",
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      log.push(city);
      return { city, sky: "clear" };
    },
  });
}

describe.each(RUNTIME_KITS)("$name: tools through Baton's lifecycle", (kit) => {
  it("runs a tool inside the runtime's loop and stores the call and its response", async () => {
    const ran: string[] = [];
    const rt = kit.scripted([call("weather", { city: "Oslo" }), { text: "Clear in Oslo" }]);
    const h = await harness(
      new RuntimeAgent({ name: "root", runtime: rt.runtime, tools: [weatherTool(ran)] }),
    );
    const events = await h.turn("weather?");
    expect(ran).toEqual(["Oslo"]);
    expect(rt.requests()).toHaveLength(2);
    expect(responses(events)).toEqual([
      { id: "call-weather", name: "weather", response: { city: "Oslo", sky: "clear" } },
    ]);
    expect(events.map((e) => e.author)).toEqual(["root", "root", "root"]);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("Clear in Oslo");
  });

  it("ends with LLM_CALLS_LIMIT_EXCEEDED before a model call past maxLlmCalls, as an LlmAgent does", async () => {
    const ran: string[] = [];
    const rt = kit.scripted([call("weather", { city: "Oslo" })]); // asks for the tool on every call
    const agent = new RuntimeAgent({ name: "root", runtime: rt.runtime, tools: [weatherTool(ran)] });
    const h = await harness(agent, { maxLlmCalls: 3 });
    const events = await h.turn("weather, forever");
    expect(rt.requests()).toHaveLength(3);
    expect(ran).toEqual(["Oslo", "Oslo", "Oslo"]);
    expect(events.at(-1)).toMatchObject({ author: "root", errorCode: "LLM_CALLS_LIMIT_EXCEEDED" });
    expect(events.filter((e) => e.errorCode !== undefined)).toHaveLength(1);
  });

  it("finishes a loop whose model calls fit maxLlmCalls exactly, with no error", async () => {
    const rt = kit.scripted([call("weather", { city: "Oslo" }), { text: "Clear in Oslo" }]);
    const agent = new RuntimeAgent({ name: "root", runtime: rt.runtime, tools: [weatherTool([])] });
    const h = await harness(agent, { maxLlmCalls: 2 });
    const events = await h.turn("weather?");
    expect(rt.requests()).toHaveLength(2);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("Clear in Oslo");
    expect(events.some((e) => e.errorCode !== undefined)).toBe(false);
  });

  it("counts its calls in the invocation's limit: with none left it fails before calling its model", async () => {
    const rt = kit.scripted([{ text: "never sent" }]);
    const h = await harness(new RuntimeAgent({ name: "root", runtime: rt.runtime }), { maxLlmCalls: -1 });
    expect(texts(await h.turn("hi"))).toEqual(["never sent"]);
    const none = kit.scripted([{ text: "never sent" }]);
    const blocked = new RuntimeAgent({ name: "blocked", runtime: none.runtime });
    const first = new LlmAgent({ name: "first", model: scriptedModel([{ text: "one" }]) });
    const chain = await harness(new SequentialAgent({ name: "chain", subAgents: [first, blocked] }), {
      maxLlmCalls: 1,
    });
    const events = await chain.turn("go");
    expect(none.requests()).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ author: "blocked", errorCode: "LLM_CALLS_LIMIT_EXCEEDED" });
  });

  it("lets beforeModel remove transfer_to_agent, and then the runtime no longer offers it", async () => {
    const rt = kit.scripted([{ text: "staying" }]);
    const root = new RuntimeAgent({
      name: "root",
      runtime: rt.runtime,
      tools: [weatherTool([])],
      subAgents: [new LlmAgent({ name: "worker", model: scriptedModel([{ text: "w" }]) })],
      beforeModel: (_ctx, request) => {
        request.tools = request.tools.filter((t) => t.name !== "transfer_to_agent");
      },
    });
    await (await harness(root)).turn("hi");
    expect(rt.requests()[0]?.toolNames).toEqual(["weather"]);
  });

  it("uses a beforeModel answer instead of running the runtime at all", async () => {
    const rt = kit.scripted([{ text: "never" }]);
    const root = new RuntimeAgent({
      name: "root",
      runtime: rt.runtime,
      outputKey: "out",
      beforeModel: () => ({ content: { role: "model", parts: [{ text: "cached answer" }] } }),
    });
    const events = await (await harness(root)).turn("hi");
    expect(rt.requests()).toHaveLength(0);
    expect(events.map((e) => [e.author, e.content?.parts?.[0]?.text, e.actions.stateDelta])).toEqual([
      ["root", "cached answer", { out: "cached answer" }],
    ]);
  });

  it("lets beforeTool answer instead of the tool and afterTool replace the result, in ADK's order", async () => {
    const ran: string[] = [];
    const order: string[] = [];
    const rt = kit.scripted([
      {
        calls: [
          { name: "weather", args: { city: "Oslo" }, id: "c1" },
          { name: "weather", args: { city: "Rome" }, id: "c2" },
        ],
      },
      { text: "done" },
    ]);
    const root = new RuntimeAgent({
      name: "root",
      runtime: rt.runtime,
      tools: [weatherTool(ran)],
      beforeTool: (_tool, args) => {
        order.push(`before:${String(args.city)}`);
        return args.city === "Oslo" ? { cached: true } : undefined;
      },
      afterTool: (_tool, args, _ctx, response) => {
        order.push(`after:${String(args.city)}`);
        return args.city === "Rome" ? { ...response, checked: true } : undefined;
      },
    });
    const events = await (await harness(root)).turn("weather?");
    expect(ran).toEqual(["Rome"]);
    expect(order.filter((o) => o.endsWith("Oslo"))).toEqual(["before:Oslo", "after:Oslo"]);
    expect(responses(events).map((r) => r.response)).toEqual([
      { cached: true },
      { city: "Rome", sky: "clear", checked: true },
    ]);
  });

  it("turns a tool error into onToolError's result, and fails the turn as the agent when nothing handles it", async () => {
    const broken = functionTool({
      name: "broken",
      description: "Always fails",
      parameters: z.object({}),
      execute: () => {
        throw new Error("disk full");
      },
    });
    const handled = kit.scripted([call("broken", {}), { text: "recovered" }]);
    const root = new RuntimeAgent({
      name: "root",
      runtime: handled.runtime,
      tools: [broken],
      onToolError: (_tool, _args, _ctx, error) => ({ error: `handled: ${String(error)}` }),
    });
    const events = await (await harness(root)).turn("go");
    expect(String(responses(events)[0]?.response.error)).toContain("Tool 'broken' failed: disk full");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("recovered");

    const unhandled = kit.scripted([call("broken", {}), { text: "must not be reached" }]);
    const h = await harness(new RuntimeAgent({ name: "root", runtime: unhandled.runtime, tools: [broken] }));
    const failed = await h.turn("go");
    expect(unhandled.requests()).toHaveLength(1);
    expect(failed.at(-1)).toMatchObject({ author: "root", errorCode: "TOOL_ERROR" });
    expect(failed.at(-1)?.errorMessage).toContain("disk full");
  });

  it("pauses the turn for a tool that needs confirmation and runs it when the user approves", async () => {
    const paid: number[] = [];
    const pay = functionTool({
      name: "pay",
      description: "Pays an amount",
      parameters: z.object({ amount: z.number() }),
      requireConfirmation: ({ amount }) => amount > 100,
      execute: ({ amount }) => {
        paid.push(amount);
        return { paid: amount };
      },
    });
    const rt = kit.scripted([call("pay", { amount: 500 }), { text: "Paid 500" }]);
    const h = await harness(new RuntimeAgent({ name: "root", runtime: rt.runtime, tools: [pay] }));
    const first = await h.turn("pay 500");
    expect(rt.requests()).toHaveLength(1);
    expect(paid).toEqual([]);
    const request = first.find(
      (e) => e.content?.parts?.[0]?.functionCall?.name === "adk_request_confirmation",
    );
    const requestCall = request?.content?.parts?.[0]?.functionCall;
    expect(request?.longRunningToolIds).toEqual([requestCall?.id]);
    expect(requestCall?.args).toMatchObject({ originalFunctionCall: { name: "pay", args: { amount: 500 } } });
    expect(responses(first).map((r) => r.response)).toEqual([
      { error: "This tool call requires confirmation, please approve or reject." },
    ]);

    const answer: Content = {
      role: "user",
      parts: [
        {
          functionResponse: {
            id: requestCall?.id ?? "",
            name: "adk_request_confirmation",
            response: { confirmed: true },
          },
        },
      ],
    };
    const second = await collect(h.runner, { userId: "u", sessionId: "s", newMessage: answer });
    expect(paid).toEqual([500]);
    expect(second.map((e) => e.author)).toEqual(["root", "root"]);
    expect(responses(second)).toEqual([{ id: "call-pay", name: "pay", response: { paid: 500 } }]);
    expect(second.at(-1)?.content?.parts?.[0]?.text).toBe("Paid 500");
    expect(rt.requests()).toHaveLength(2);
    expect(rt.requests()[1]?.text).toContain("paid");
  });

  it("answers a refused confirmation with ADK's rejection and does not run the tool", async () => {
    const paid: number[] = [];
    const pay = functionTool({
      name: "pay",
      description: "Pays",
      parameters: z.object({ amount: z.number() }),
      requireConfirmation: true,
      execute: ({ amount }) => paid.push(amount),
    });
    const rt = kit.scripted([call("pay", { amount: 5 }), { text: "Not paid" }]);
    const h = await harness(new RuntimeAgent({ name: "root", runtime: rt.runtime, tools: [pay] }));
    const first = await h.turn("pay 5");
    const id = first.flatMap((e) => e.longRunningToolIds ?? [])[0] ?? "";
    const answer: Content = {
      role: "user",
      parts: [{ functionResponse: { id, name: "adk_request_confirmation", response: { confirmed: false } } }],
    };
    const second = await collect(h.runner, { userId: "u", sessionId: "s", newMessage: answer });
    expect(paid).toEqual([]);
    expect(responses(second).map((r) => r.response)).toEqual([{ error: "This tool call is rejected." }]);
  });

  it("pauses on a long-running tool and continues when the user sends its result", async () => {
    const ask = functionTool({
      name: "ask_manager",
      description: "Asks a human",
      parameters: z.object({ question: z.string() }),
      isLongRunning: true,
      execute: () => undefined,
    });
    const rt = kit.scripted([call("ask_manager", { question: "ok?" }, "lr-1"), { text: "Manager said yes" }]);
    const h = await harness(new RuntimeAgent({ name: "root", runtime: rt.runtime, tools: [ask] }));
    const first = await h.turn("ask");
    expect(rt.requests()).toHaveLength(1);
    expect(first.map((e) => e.longRunningToolIds)).toEqual([["lr-1"]]);
    const reply: Content = {
      role: "user",
      parts: [{ functionResponse: { id: "lr-1", name: "ask_manager", response: { answer: "yes" } } }],
    };
    const second = await collect(h.runner, { userId: "u", sessionId: "s", newMessage: reply });
    expect(second.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["root", "Manager said yes"],
    ]);
    expect(rt.requests()[1]?.text).toContain("yes");
  });
});

describe("aiSdkRuntime's own step limit", () => {
  it("stops its loop after maxSteps model calls, within a larger maxLlmCalls", async () => {
    const ran: string[] = [];
    const model = scriptedModel([call("weather", { city: "Oslo" })]); // asks for the tool on every call
    const runtime = aiSdkRuntime({ model, maxRetries: 0, maxSteps: 2 });
    const h = await harness(new RuntimeAgent({ name: "root", runtime, tools: [weatherTool(ran)] }), {
      maxLlmCalls: 5,
    });
    const events = await h.turn("weather, forever");
    expect(model.calls).toHaveLength(2);
    expect(ran).toEqual(["Oslo", "Oslo"]);
    expect(events.some((e) => e.errorCode !== undefined)).toBe(false);
  });
});
