import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { harness } from "../support/harness.js";
import { scriptedModel } from "../support/scripted-model.js";

/** The descriptions of what an event's memo slot holds (white-box: the slot is a private symbol property). */
function memoKeys(event: Event): string[] {
  const slots = Object.getOwnPropertySymbols(event).map((symbol) => Reflect.get(event, symbol) as object);
  return slots.flatMap((slot) => Object.getOwnPropertySymbols(slot).map((key) => key.description ?? ""));
}

describe("a history bounded by maxHistoryEvents", () => {
  it("sends each turn the newest events and keeps no history with a window's first event, which moves on every turn", async () => {
    const model = scriptedModel((i) => ({ text: `answer ${i + 1}` }));
    const h = await harness(new LlmAgent({ name: "chat", model, instruction: "Chat." }), {
      maxHistoryEvents: 4,
    });
    for (const message of ["one", "two", "three", "four", "five", "six"]) await h.turn(message);

    const texts = (model.calls.at(-1)?.prompt ?? [])
      .filter((m) => m.role !== "system")
      .map((m) =>
        typeof m.content === "string"
          ? m.content
          : m.content.map((p) => ("text" in p ? p.text : "")).join(""),
      );
    expect(texts).toEqual(["answer 4", "five", "answer 5", "six"]);

    const stored = (await h.session()).events;
    expect(stored).toHaveLength(12);
    // While the session was shorter than the bound its history was kept with its first event; once the
    // window slid, nothing more was kept: only the session's first event holds a kept history.
    const keeping = stored.filter((e) => memoKeys(e).includes("kept histories"));
    expect(keeping).toEqual([stored[0]]);
  });
});
