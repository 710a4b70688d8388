import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { applyCompactions } from "../../../src/core/compaction.js";
import { createEvent, type Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import { type EventsCompactionConfig, llmEventSummarizer } from "../../../src/runner/events-compaction.js";
import { harness } from "../support/harness.js";
import { testServices } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

/** Every text a model call's history carried, message by message (the system instruction left out). */
function promptTexts(call: LanguageModelV3CallOptions | undefined): string[] {
  return (call?.prompt ?? [])
    .filter((m) => m.role !== "system")
    .map((m) =>
      typeof m.content === "string"
        ? `${m.role}: ${m.content}`
        : `${m.role}: ${m.content.map((p) => ("text" in p ? p.text : p.type)).join(" | ")}`,
    );
}

/** A chat agent answering "answer N", a summarizer answering "summary N", and a turn that moves the clock first. */
async function compactingChat(config: Omit<EventsCompactionConfig, "summarizer">) {
  const model = scriptedModel((i) => ({ text: `answer ${i + 1}` }));
  const summaries = scriptedModel((i) => ({ text: `summary ${i + 1}` }));
  const agent = new LlmAgent({ name: "chat", model, instruction: "Chat." });
  const h = await harness(agent, {
    eventsCompactionConfig: { ...config, summarizer: llmEventSummarizer({ model: summaries }) },
  });
  const turn = async (message: string) => {
    h.services.clockMs.value += 1_000;
    return h.turn(message);
  };
  return { h, model, summaries, turn };
}

describe("events compaction (ADK EventsCompactionConfig)", () => {
  it("summarizes every compactionInterval invocations and the next prompt reads the summary in their place", async () => {
    const { h, model, summaries, turn } = await compactingChat({ compactionInterval: 2, overlapSize: 1 });
    await turn("one");
    expect(summaries.calls).toHaveLength(0);
    const second = await turn("two");
    expect(summaries.calls).toHaveLength(1);
    // The compaction event is stored, not yielded.
    expect(second.some((e) => e.actions.compaction !== undefined)).toBe(false);
    expect(promptTexts(summaries.calls[0])).toEqual([
      "user: The following is a conversation history between a user and an AI agent. Please summarize the" +
        " conversation, focusing on key information and decisions made, as well as any unresolved questions or" +
        " tasks. The summary should be concise and capture the essence of the interaction.\\n\\n" +
        "user: one\\nchat: answer 1\\nuser: two\\nchat: answer 2",
    ]);
    await turn("three");
    expect(promptTexts(model.calls[2])).toEqual(["assistant: summary 1", "user: three"]);

    const stored = (await h.session()).events;
    const [compaction] = stored.filter((e) => e.actions.compaction !== undefined);
    expect(compaction).toMatchObject({
      author: "user",
      actions: {
        compaction: {
          startTimestamp: stored[0]?.timestamp,
          endTimestamp: stored[3]?.timestamp,
          compactedContent: { role: "model", parts: [{ text: "summary 1" }] },
        },
      },
    });
    expect(compaction?.content).toBeUndefined();
    // Reads still return every stored event, the compacted ones included.
    expect(stored.filter((e) => e.content?.parts?.[0]?.text === "one")).toHaveLength(1);
    expect(stored).toHaveLength(7);
  });

  it("overlaps consecutive summaries by overlapSize invocations and keeps both, as ADK does", async () => {
    const { h, model, summaries, turn } = await compactingChat({ compactionInterval: 2, overlapSize: 1 });
    for (const word of ["one", "two", "three", "four"]) await turn(word);
    expect(summaries.calls).toHaveLength(2);
    // The second window starts one invocation before the new ones: "two" through "four".
    expect(promptTexts(summaries.calls[1])[0]).toContain("user: two\\nchat: answer 2\\nuser: three");
    expect(promptTexts(summaries.calls[1])[0]).not.toContain("user: one");
    await turn("five");
    expect(promptTexts(model.calls[4])).toEqual([
      "assistant: summary 1",
      "assistant: summary 2",
      "user: five",
    ]);
    expect((await h.session()).events.filter((e) => e.actions.compaction)).toHaveLength(2);
  });

  it("compacts all but the retained events once a prompt reached tokenThreshold, folding the previous summary in", async () => {
    // The scripted model reports 3 prompt tokens per call.
    const { model, summaries, turn } = await compactingChat({ tokenThreshold: 3, eventRetentionSize: 2 });
    await turn("one");
    expect(summaries.calls).toHaveLength(0);
    await turn("two");
    expect(promptTexts(summaries.calls[0])[0]).toMatch(/\\n\\nuser: one\\nchat: answer 1$/);
    await turn("three");
    expect(promptTexts(model.calls[2])).toEqual([
      "assistant: summary 1",
      "user: two",
      "assistant: answer 2",
      "user: three",
    ]);
    // The next summary reads the previous one first and replaces it.
    expect(promptTexts(summaries.calls[1])[0]).toMatch(
      /\\n\\nmodel: summary 1\\nuser: two\\nchat: answer 2$/,
    );
    await turn("four");
    expect(promptTexts(model.calls[3])).toEqual([
      "assistant: summary 2",
      "user: three",
      "assistant: answer 3",
      "user: four",
    ]);
  });

  it("keeps the turn when the summarizer fails, and tries again after the next turn", async () => {
    const model = scriptedModel([{ text: "fine" }]);
    let attempts = 0;
    const h = await harness(new LlmAgent({ name: "chat", model }), {
      eventsCompactionConfig: {
        compactionInterval: 1,
        overlapSize: 0,
        summarizer: {
          summarize: async () => {
            attempts += 1;
            throw new Error("summarizer down");
          },
        },
      },
    });
    const events = await h.turn("hello");
    expect(events.map((e) => e.content?.parts?.[0]?.text)).toEqual(["fine"]);
    await h.turn("again");
    expect(attempts).toBe(2);
    expect((await h.session()).events.some((e) => e.errorCode !== undefined)).toBe(false);
  });

  it("refuses a config whose trigger pairs are incomplete or missing, naming what to set", () => {
    const rootAgent = new LlmAgent({ name: "a", model: "demo:" });
    const app = (eventsCompactionConfig: EventsCompactionConfig) =>
      defineApp({ name: "x", rootAgent, eventsCompactionConfig });
    expect(() => app({ compactionInterval: 2 })).toThrow(
      /compactionInterval and overlapSize must be set together/,
    );
    expect(() => app({ tokenThreshold: 10 })).toThrow(
      /tokenThreshold and eventRetentionSize must be set together/,
    );
    expect(() => app({})).toThrow(/set compactionInterval and overlapSize, or tokenThreshold/);
    expect(() => app({ compactionInterval: 0, overlapSize: 0 })).toThrow(/at least 1/);
    expect(app({ compactionInterval: 3, overlapSize: 1 }).eventsCompactionConfig?.summarizer).toBeDefined();
  });
});

describe("applyCompactions (ADK _process_compaction_events)", () => {
  const services = testServices();
  const at = (seconds: number, fields: Partial<Event>): Event => {
    services.clockMs.value = seconds * 1000;
    return { ...createEvent({ invocationId: "i", author: "user", ...fields }, services), ...fields };
  };
  const said = (seconds: number, text: string) =>
    at(seconds, { author: "a", content: { role: "model", parts: [{ text }] } });
  const compaction = (seconds: number, start: number, end: number, summary: string) =>
    at(seconds, {
      actions: {
        ...createEvent({ invocationId: "c", author: "user" }, services).actions,
        compaction: {
          startTimestamp: start,
          endTimestamp: end,
          compactedContent: { role: "model", parts: [{ text: summary }] },
        },
      },
    });
  const textsOf = (events: readonly Event[]) =>
    events.map((e) => `${e.author}:${e.content?.parts?.[0]?.text}`);

  it("drops a summary another one covers, and a same-range summary stored earlier", () => {
    const events = [
      said(1, "e1"),
      said(2, "e2"),
      compaction(3, 1, 2, "s12"),
      said(4, "e4"),
      compaction(5, 1, 4, "s14"),
      compaction(6, 1, 4, "s14b"),
      said(7, "e7"),
    ];
    expect(textsOf(applyCompactions(events, "me"))).toEqual(["me:s14b", "a:e7"]);
  });

  it("places each kept summary at its end timestamp, among the raw events it does not cover", () => {
    const events = [
      said(1, "e1"),
      said(2, "e2"),
      compaction(3, 1, 2, "s12"),
      said(4, "e4"),
      compaction(5, 2, 4, "s24"),
      said(6, "e6"),
    ];
    expect(textsOf(applyCompactions(events, "me"))).toEqual(["me:s12", "me:s24", "a:e6"]);
  });

  it("skips a compaction without both bounds or a content, as ADK does", () => {
    const broken = at(3, {
      actions: {
        ...createEvent({ invocationId: "c", author: "user" }, services).actions,
        compaction: { startTimestamp: 1 },
      },
    });
    expect(textsOf(applyCompactions([said(1, "e1"), broken, said(4, "e4")], "me"))).toEqual(["a:e1", "a:e4"]);
  });
});
