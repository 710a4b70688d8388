import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { BatonError } from "../../../src/core/errors.js";
import { harness } from "../support/harness.js";
import { collect, text } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

describe("Runner", () => {
  it("E03: stamps the run's customMetadata on every event, the event's own keys winning", async () => {
    const model = scriptedModel([{ text: "hi" }]);
    const h = await harness(
      new LlmAgent({ name: "a", model, afterModel: (_c, r) => ({ ...r, customMetadata: { k: 2, j: 3 } }) }),
    );
    const events = await collect(h.runner, {
      userId: "u",
      sessionId: "s",
      newMessage: text("x"),
      customMetadata: { k: 1 },
    });
    expect(events[0]?.customMetadata).toEqual({ k: 2, j: 3 });
    const stored = (await h.session()).events;
    expect(stored[0]?.customMetadata).toEqual({ k: 1 });
    expect(stored[1]?.customMetadata).toEqual({ k: 2, j: 3 });
  });

  it("S08: writes the run's stateDelta with the user event, before the agent runs", async () => {
    const seen: unknown[] = [];
    const model = scriptedModel([{ text: "ok" }]);
    const h = await harness(
      new LlmAgent({ name: "a", model, beforeAgent: (ctx) => void seen.push(ctx.state.get("x")) }),
    );
    await h.turn("go", { stateDelta: { x: 1 } });
    expect(seen).toEqual([1]);
    expect((await h.session()).events[0]?.actions.stateDelta).toEqual({ x: 1 });
  });

  it("refuses a message with no parts before touching the session", async () => {
    const h = await harness(new LlmAgent({ name: "a", model: scriptedModel([{ text: "ok" }]) }));
    await expect(
      collect(h.runner, { userId: "u", sessionId: "s", newMessage: { role: "user", parts: [] } }),
    ).rejects.toThrow(BatonError);
    expect((await h.session()).events).toEqual([]);
  });

  it("answers session_not_found for a session that does not exist", async () => {
    const h = await harness(new LlmAgent({ name: "a", model: scriptedModel([{ text: "ok" }]) }));
    await expect(
      collect(h.runner, { userId: "u", sessionId: "nope", newMessage: text("x") }),
    ).rejects.toMatchObject({
      code: "session_not_found",
    });
  });

  it("releases the lease when the caller stops reading half-way", async () => {
    const model = scriptedModel([{ calls: [{ name: "missing_tool", args: {} }] }]);
    const h = await harness(new LlmAgent({ name: "a", model }));
    const turn = h.runner.run({ userId: "u", sessionId: "s", newMessage: text("x") });
    await turn.next(); // the model's call event, stored
    await turn.return(undefined);
    const next = await h.turn("again");
    expect(next.length).toBeGreaterThan(0);
  });
});
