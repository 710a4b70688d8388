import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { buildContents } from "../../../src/agents/history.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Content } from "../../../src/core/content.js";
import { createEvent, type Event } from "../../../src/core/event.js";
import { harness } from "../support/harness.js";
import { collect } from "../support/run-helpers.js";
import { promptText, scriptedModel } from "../support/scripted-model.js";

let n = 0;
const env = { ids: { uuid: () => `id-${++n}` }, clock: { now: () => 1_767_225_600_000 } };
const ev = (author: string, content: Content): Event =>
  createEvent({ invocationId: "e1", author, content }, env);
const text = (author: string, t: string) =>
  ev(author, { role: author === "user" ? "user" : "model", parts: [{ text: t }] });
const call = (id: string, name = "approve") =>
  ev("agent", { role: "model", parts: [{ functionCall: { id, name, args: {} } }] });
const response = (author: string, id: string, body: Record<string, unknown>, name = "approve") =>
  ev(author, { role: "user", parts: [{ functionResponse: { id, name, response: body } }] });

/** Each content as a short label: text, `call:id`, or `resp:id=<status>`. */
const labels = (contents: Content[]) =>
  contents.map((c) =>
    (c.parts ?? [])
      .map((p) =>
        p.functionCall
          ? `call:${p.functionCall.id}`
          : p.functionResponse
            ? `resp:${p.functionResponse.id}=${String(p.functionResponse.response.status)}`
            : p.text,
      )
      .join("+"),
  );

describe("history around long-running calls (ADK-SEMANTICS §3.6)", () => {
  it("puts the user's late answer right after its call, over the pending response, and drops what came between", () => {
    const events = [
      text("user", "pay 5"),
      call("c1"),
      response("agent", "c1", { status: "pending" }),
      text("agent", "waiting for approval"),
      text("user", "any news?"),
      text("agent", "still waiting"),
      response("user", "c1", { status: "approved" }),
    ];
    expect(labels(buildContents(events, "agent", { includeContents: "default" }))).toEqual([
      "pay 5",
      "call:c1",
      "resp:c1=approved",
    ]);
  });

  it("keeps the newest answer next to its call in later turns, the pending one gone and the rest in order", () => {
    const events = [
      text("user", "pay 5"),
      call("c1"),
      response("agent", "c1", { status: "pending" }),
      text("agent", "waiting for approval"),
      response("user", "c1", { status: "approved" }),
      text("agent", "paid"),
      text("user", "thanks"),
    ];
    expect(labels(buildContents(events, "agent", { includeContents: "default" }))).toEqual([
      "pay 5",
      "call:c1",
      "resp:c1=approved",
      "waiting for approval",
      "paid",
      "thanks",
    ]);
  });

  it("merges late answers to two calls of one event into one response after it, in the order they came", () => {
    const events = [
      text("user", "two approvals"),
      ev("agent", {
        role: "model",
        parts: [
          { functionCall: { id: "a", name: "approve", args: {} } },
          { functionCall: { id: "b", name: "approve", args: {} } },
        ],
      }),
      text("user", "hello?"),
      response("user", "b", { status: "yes-b" }),
      text("agent", "got b"),
      response("user", "a", { status: "yes-a" }),
    ];
    expect(labels(buildContents(events, "agent", { includeContents: "default" }))).toEqual([
      "two approvals",
      "call:a+call:b",
      "resp:b=yes-b+resp:a=yes-a",
    ]);
  });

  it("drops an answer whose call is not in the history instead of failing (ADK raises)", () => {
    const events = [text("user", "hi"), text("agent", "hello"), response("user", "unknown", { status: "x" })];
    expect(labels(buildContents(events, "agent", { includeContents: "default" }))).toEqual(["hi", "hello"]);
  });

  it("end to end: the resumed model sees the call and the final answer only, not the pending response or the chat between", async () => {
    const approval = functionTool({
      name: "approve",
      description: "Asks a human to approve a payment",
      parameters: z.object({ amount: z.number() }),
      execute: () => ({ status: "pending" }),
      isLongRunning: true,
    });
    const model = scriptedModel([
      { calls: [{ name: "approve", args: { amount: 5 }, id: "c1" }] },
      { text: "waiting for approval" },
      { text: "still waiting" },
      { text: "paid" },
    ]);
    const h = await harness(new LlmAgent({ name: "agent", model, tools: [approval] }));
    const first = await h.turn("pay 5");
    expect(first[0]?.longRunningToolIds).toEqual(["c1"]);
    expect(first[1]?.content?.parts?.[0]?.functionResponse?.response).toEqual({ status: "pending" });
    await h.turn("any news?");
    const resumed = await collect(h.runner, {
      userId: "u",
      sessionId: "s",
      newMessage: {
        role: "user",
        parts: [{ functionResponse: { id: "c1", name: "approve", response: { status: "approved" } } }],
      },
    });
    expect(resumed.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([["agent", "paid"]]);
    const prompt = model.calls[3]?.prompt ?? [];
    expect(prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(JSON.stringify(prompt.at(-1))).toContain("approved");
    expect(promptText({ prompt } as never)).not.toMatch(/pending|waiting|any news/);
  });
});
