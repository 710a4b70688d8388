import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { unansweredMessage } from "../../../src/core/open-calls.js";
import { harness } from "../support/harness.js";
import { collect, texts } from "../support/run-helpers.js";
import { promptText, scriptedModel } from "../support/scripted-model.js";

const add = functionTool({
  name: "add",
  description: "Adds two numbers",
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe("LlmAgent tool calls", () => {
  it("runs a tool, wraps a plain result as {result}, and calls the model again with it", async () => {
    const model = scriptedModel([{ calls: [{ name: "add", args: { a: 2, b: 3 } }] }, { text: "5" }]);
    const h = await harness(new LlmAgent({ name: "calc", model, tools: [add] }));
    const events = await h.turn("2+3?");
    expect(events.map((e) => e.content?.role)).toEqual(["model", "user", "model"]);
    const call = events[0]?.content?.parts?.[0]?.functionCall;
    const response = events[1]?.content?.parts?.[0]?.functionResponse;
    expect(response).toEqual({ id: call?.id, name: "add", response: { result: 5 } });
    expect(events[1]?.author).toBe("calc");
    expect(promptText(model.calls[1] ?? ({ prompt: [] } as never))).toContain("5");
  });

  it("mints adk- ids for calls the model left without one", async () => {
    const model = scriptedModel([{ calls: [{ name: "add", args: { a: 1, b: 1 }, id: "" }] }, { text: "2" }]);
    const h = await harness(new LlmAgent({ name: "calc", model, tools: [add] }));
    const events = await h.turn("1+1");
    expect(events[0]?.content?.parts?.[0]?.functionCall?.id).toMatch(/^adk-/);
  });

  it("merges parallel calls into one response event in call order", async () => {
    const model = scriptedModel([
      {
        calls: [
          { name: "add", args: { a: 1, b: 2 } },
          { name: "add", args: { a: 10, b: 20 } },
        ],
      },
      { text: "3 and 30" },
    ]);
    const h = await harness(new LlmAgent({ name: "calc", model, tools: [add] }));
    const events = await h.turn("two sums");
    const parts = events[1]?.content?.parts ?? [];
    expect(parts.map((p) => p.functionResponse?.response)).toEqual([{ result: 3 }, { result: 30 }]);
  });

  it("answers arguments that fail the schema with an error response, not a crash", async () => {
    const model = scriptedModel([{ calls: [{ name: "add", args: { a: "two" } }] }, { text: "sorry" }]);
    const h = await harness(new LlmAgent({ name: "calc", model, tools: [add] }));
    const events = await h.turn("add");
    expect(events[1]?.content?.parts?.[0]?.functionResponse?.response.error).toContain(
      "Invalid arguments for add",
    );
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("sorry");
  });

  it("ends the turn with a TOOL_ERROR event authored by the agent when a tool throws and nothing handles it", async () => {
    const boom = functionTool({
      name: "boom",
      description: "fails",
      parameters: z.object({}),
      execute: () => {
        throw new Error("disk full");
      },
    });
    const model = scriptedModel([{ calls: [{ name: "boom", args: {} }] }]);
    const h = await harness(new LlmAgent({ name: "worker", model, tools: [boom] }));
    const events = await h.turn("go");
    expect(events.at(-1)).toMatchObject({ author: "worker", errorCode: "TOOL_ERROR" });
    expect(events.at(-1)?.errorMessage).toContain("disk full");
    // The store answers the call the failed turn left open once the turn ends (decision 047).
    const stored = (await h.session()).events;
    expect(stored.map((e) => e.author)).toEqual(["user", "worker", "worker", "worker"]);
    expect(stored.at(-1)?.content?.parts?.[0]?.functionResponse).toMatchObject({
      name: "boom",
      response: { error: unansweredMessage("boom") },
    });
  });

  it("uses onToolError's result as the response when a tool throws", async () => {
    const boom = functionTool({
      name: "boom",
      description: "fails",
      parameters: z.object({}),
      execute: () => {
        throw new Error("disk full");
      },
    });
    const model = scriptedModel([{ calls: [{ name: "boom", args: {} }] }, { text: "handled" }]);
    const h = await harness(
      new LlmAgent({ name: "worker", model, tools: [boom], onToolError: () => ({ error: "x" }) }),
    );
    const events = await h.turn("go");
    expect(events[1]?.content?.parts?.[0]?.functionResponse?.response).toEqual({ error: "x" });
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("handled");
  });

  it("fails with TOOL_NOT_FOUND for a tool the agent does not have", async () => {
    const model = scriptedModel([{ calls: [{ name: "ghost_tool", args: {} }] }]);
    const h = await harness(new LlmAgent({ name: "worker", model, tools: [add] }));
    const events = await h.turn("go");
    expect(events.at(-1)).toMatchObject({ author: "worker", errorCode: "TOOL_NOT_FOUND" });
    expect(events.at(-1)?.errorMessage).toContain("Available tools: add");
  });
});

describe("LlmAgent callbacks (ADK-SEMANTICS §7.2)", () => {
  it("C01: beforeModel's response replaces the model call and afterModel does not run", async () => {
    const model = scriptedModel([{ text: "from model" }]);
    let afterRan = false;
    const h = await harness(
      new LlmAgent({
        name: "a",
        model,
        beforeModel: () => ({ content: { role: "model", parts: [{ text: "cached" }] } }),
        afterModel: () => {
          afterRan = true;
        },
      }),
    );
    const events = await h.turn("hi");
    expect(texts(events)).toEqual(["cached"]);
    expect(model.calls).toHaveLength(0);
    expect(afterRan).toBe(false);
  });

  it("lets beforeModel edit the request's contents in place without changing the stored history", async () => {
    const model = scriptedModel([{ text: "one" }, { text: "two" }]);
    const h = await harness(
      new LlmAgent({
        name: "a",
        model,
        beforeModel: (_ctx, request) => {
          const first = request.contents[0]?.parts?.[0];
          if (first) first.text = `${first.text} (edited)`;
          request.contents.push({ role: "user", parts: [{ text: "added by the callback" }] });
        },
      }),
    );
    await h.turn("first question");
    await h.turn("second question");
    const second = model.calls[1];
    expect(second && promptText(second)).toContain("first question (edited)");
    expect(second && promptText(second)).toContain("added by the callback");
    // The edit reached that request only: the stored event, and the history the next request is built from, keep the text.
    const stored = (await h.session()).events.map((e) => e.content?.parts?.[0]?.text);
    expect(stored).toEqual(["first question", "one", "second question", "two"]);
    expect(second && promptText(second).match(/\(edited\)/g)).toHaveLength(1);
  });

  it("C02: onModelError's response replaces the error and afterModel runs on it", async () => {
    const model = scriptedModel([{ fail: 400 }]);
    const h = await harness(
      new LlmAgent({
        name: "a",
        model,
        onModelError: () => ({ content: { role: "model", parts: [{ text: "fallback" }] } }),
        afterModel: (_ctx, r) => ({
          ...r,
          content: { role: "model", parts: [{ text: `${r.content?.parts?.[0]?.text}!` }] },
        }),
      }),
    );
    const events = await h.turn("hi");
    expect(texts(events)).toEqual(["fallback!"]);
  });

  it("C04: beforeTool's result skips the tool and afterTool still runs", async () => {
    let executed = false;
    const spy = functionTool({
      name: "spy",
      description: "",
      parameters: z.object({}),
      execute: () => {
        executed = true;
        return "real";
      },
    });
    const seen: unknown[] = [];
    const model = scriptedModel([{ calls: [{ name: "spy", args: {} }] }, { text: "ok" }]);
    const h = await harness(
      new LlmAgent({
        name: "a",
        model,
        tools: [spy],
        beforeTool: () => ({ cached: true }),
        afterTool: (_t, _a, _c, response) => {
          seen.push(response);
        },
      }),
    );
    const events = await h.turn("hi");
    expect(executed).toBe(false);
    expect(seen).toEqual([{ cached: true }]);
    expect(events[1]?.content?.parts?.[0]?.functionResponse?.response).toEqual({ cached: true });
  });

  it("afterTool's result replaces the tool's response", async () => {
    const model = scriptedModel([{ calls: [{ name: "add", args: { a: 1, b: 2 } }] }, { text: "ok" }]);
    const h = await harness(
      new LlmAgent({ name: "a", model, tools: [add], afterTool: () => ({ result: 42 }) }),
    );
    const events = await h.turn("hi");
    expect(events[1]?.content?.parts?.[0]?.functionResponse?.response).toEqual({ result: 42 });
  });

  it("afterModel's response replaces the model's", async () => {
    const model = scriptedModel([{ text: "raw" }]);
    const h = await harness(
      new LlmAgent({
        name: "a",
        model,
        afterModel: () => ({ content: { role: "model", parts: [{ text: "edited" }] } }),
      }),
    );
    expect(texts(await h.turn("hi"))).toEqual(["edited"]);
  });

  it("C06: beforeAgent's content ends the agent: no model call, no afterAgent", async () => {
    const model = scriptedModel([{ text: "never" }]);
    let afterRan = false;
    const h = await harness(
      new LlmAgent({
        name: "a",
        model,
        beforeAgent: () => ({ parts: [{ text: "closed today" }] }),
        afterAgent: () => {
          afterRan = true;
        },
      }),
    );
    const events = await h.turn("hi");
    expect(texts(events)).toEqual(["closed today"]);
    expect(model.calls).toHaveLength(0);
    expect(afterRan).toBe(false);
  });

  it("beforeAgent that only writes state emits a state-only event and the agent goes on", async () => {
    const model = scriptedModel([{ text: "answer" }]);
    const h = await harness(
      new LlmAgent({ name: "a", model, beforeAgent: (ctx) => void ctx.state.set("seen", true) }),
    );
    const events = await h.turn("hi");
    expect(events[0]?.actions.stateDelta).toEqual({ seen: true });
    expect(events[0]?.content).toBeUndefined();
    expect(events[1]?.content?.parts?.[0]?.text).toBe("answer");
    expect((await h.session()).state.seen).toBe(true);
  });

  it("afterAgent's content adds one event after the agent's own", async () => {
    const model = scriptedModel([{ text: "answer" }]);
    const h = await harness(
      new LlmAgent({ name: "a", model, afterAgent: () => ({ parts: [{ text: "bye" }] }) }),
    );
    expect(texts(await h.turn("hi"))).toEqual(["answer", "bye"]);
  });
});

describe("LlmAgent state and history", () => {
  it("T15: outputKey writes the agent's final text to state on that event", async () => {
    const h = await harness(
      new LlmAgent({ name: "a", model: scriptedModel([{ text: "42" }]), outputKey: "answer" }),
    );
    const events = await h.turn("hi");
    expect(events[0]?.actions.stateDelta).toEqual({ answer: "42" });
    expect((await h.session()).state.answer).toBe("42");
  });

  it("fills {var} and {var?} in the instruction from state, and fails clearly on a missing {var}", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const h = await harness(new LlmAgent({ name: "a", model, instruction: "Hello {user:name}{missing?}." }));
    await h.turn("hi", { stateDelta: { "user:name": "Ada" } });
    expect(promptText(model.calls[0] ?? ({ prompt: [] } as never))).toContain("Hello Ada.");

    const strict = await harness(new LlmAgent({ name: "b", model, instruction: "Hi {nobody}" }));
    const events = await strict.turn("hi");
    expect(events.at(-1)).toMatchObject({ author: "b", errorCode: "AGENT_ERROR" });
    expect(events.at(-1)?.errorMessage).toContain("nobody");
  });

  it("keeps temp: state for the invocation only", async () => {
    const seen: unknown[] = [];
    const setter = functionTool({
      name: "set_temp",
      description: "",
      parameters: z.object({}),
      execute: (_a, ctx) => {
        ctx.state.set("temp:scratch", 7);
        ctx.state.set("kept", 1);
      },
    });
    const model = scriptedModel([{ calls: [{ name: "set_temp", args: {} }] }, { text: "done" }]);
    const h = await harness(
      new LlmAgent({
        name: "a",
        model,
        tools: [setter],
        afterAgent: (ctx) => void seen.push(ctx.state.get("temp:scratch")),
      }),
    );
    const events = await h.turn("go");
    expect(seen).toEqual([7]);
    expect(events[1]?.actions.stateDelta).toEqual({ kept: 1 });
    const session = await h.session();
    expect(session.state).toEqual({ kept: 1 });
    expect(JSON.stringify(session.events)).not.toContain("temp:scratch");
  });

  it("ends with LLM_CALLS_LIMIT_EXCEEDED when a tool loop passes maxLlmCalls", async () => {
    const model = scriptedModel([{ calls: [{ name: "add", args: { a: 1, b: 1 } }] }]);
    const h = await harness(new LlmAgent({ name: "loop", model, tools: [add] }), { maxLlmCalls: 2 });
    const events = await h.turn("loop forever");
    expect(model.calls).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ author: "loop", errorCode: "LLM_CALLS_LIMIT_EXCEEDED" });
  });

  it("turns a SAFETY finish with no content into a final error event", async () => {
    const h = await harness(
      new LlmAgent({ name: "a", model: scriptedModel([{ finish: "content-filter" }]) }),
    );
    const events = await h.turn("hi");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author: "a", errorCode: "SAFETY" });
    expect(events[0]?.content).toBeUndefined();
  });
});

describe("model retries through the agent", () => {
  it("honours Retry-After on a 429, then succeeds", async () => {
    const model = scriptedModel([{ fail: 429, headers: { "retry-after": "7" } }, { text: "ok" }]);
    const h = await harness(new LlmAgent({ name: "a", model, retry: { maxDelayMs: 60_000 } }));
    const events = await h.turn("hi");
    expect(texts(events)).toEqual(["ok"]);
    expect(h.services.slept).toEqual([7000]);
  });

  it("does not retry a 400 and records MODEL_BAD_REQUEST", async () => {
    const model = scriptedModel([{ fail: 400 }]);
    const h = await harness(new LlmAgent({ name: "a", model }));
    const events = await h.turn("hi");
    expect(model.calls).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ author: "a", errorCode: "MODEL_BAD_REQUEST" });
  });

  it("takes the per-agent attempts setting", async () => {
    const model = scriptedModel([{ fail: 503 }]);
    const h = await harness(
      new LlmAgent({ name: "a", model, retry: { attempts: 5, initialDelayMs: 10, maxDelayMs: 20 } }),
    );
    await h.turn("hi");
    expect(model.calls).toHaveLength(5);
    expect(h.services.slept.every((ms) => ms <= 20)).toBe(true);
  });
});

describe("long-running tools (human in the loop)", () => {
  it("pauses the turn on a long-running call, then resumes with the user's function response", async () => {
    const approve = functionTool({
      name: "ask_approval",
      description: "Asks a human to approve",
      parameters: z.object({ amount: z.number() }),
      execute: () => undefined,
      isLongRunning: true,
    });
    const model = scriptedModel([
      { calls: [{ name: "ask_approval", args: { amount: 5 }, id: "call-1" }] },
      { text: "approved, done" },
    ]);
    const approver = new LlmAgent({ name: "approver", model, tools: [approve] });
    const h = await harness(
      new LlmAgent({ name: "root", model: scriptedModel([{ text: "root" }]), subAgents: [approver] }),
    );
    // Route the first turn to approver by history: it answered before.
    await h.store.appendEvent(h.key, {
      id: "prior",
      invocationId: "e-0",
      author: "approver",
      timestamp: 1,
      content: { role: "model", parts: [{ text: "hello" }] },
      actions: {
        stateDelta: {},
        artifactDelta: {},
        requestedAuthConfigs: {},
        requestedToolConfirmations: {},
      },
    });
    const paused = await h.turn("pay 5");
    expect(paused).toHaveLength(1);
    expect(paused[0]?.longRunningToolIds).toEqual(["call-1"]);

    const resumed = await collect(h.runner, {
      userId: "u",
      sessionId: "s",
      newMessage: {
        role: "user",
        parts: [{ functionResponse: { id: "call-1", name: "ask_approval", response: { ok: true } } }],
      },
    });
    expect(resumed.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["approver", "approved, done"],
    ]);
  });
});
