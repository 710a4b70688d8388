import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { harness } from "../support/harness.js";
import { collect, text } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

const ids = { invocationId: "e-fixed-invocation", userEventId: "user-event-fixed" };

describe("Runner with a caller-given invocation id and user event id", () => {
  it("uses them for the user event and every event of the invocation", async () => {
    const h = await harness(new LlmAgent({ name: "a", model: scriptedModel([{ text: "hi" }]) }));
    await collect(h.runner, { userId: "u", sessionId: "s", newMessage: text("x"), ...ids });
    const stored = (await h.session()).events;
    expect(stored[0]?.id).toBe(ids.userEventId);
    expect(stored.map((e) => e.invocationId)).toEqual([ids.invocationId, ids.invocationId]);
  });

  it("resumes a turn whose user event is stored: no second user event, and the model sees the stored history", async () => {
    const model = scriptedModel([{ text: "first answer" }, { text: "never asked" }]);
    const h = await harness(new LlmAgent({ name: "a", model }));
    const request = { userId: "u", sessionId: "s", newMessage: text("x"), ...ids };
    await collect(h.runner, request);
    // The invocation ended with a final response: resuming it runs nothing and stores nothing.
    expect(await collect(h.runner, request)).toEqual([]);
    const stored = (await h.session()).events;
    expect(stored.map((e) => e.author)).toEqual(["user", "a"]);
    expect(model.calls).toHaveLength(1);
  });

  it("resumes a turn that failed: the error stays, the user message reaches the model once, the answer follows", async () => {
    const model = scriptedModel([{ fail: 400 }, { text: "second try" }]);
    const h = await harness(new LlmAgent({ name: "a", model }));
    const request = { userId: "u", sessionId: "s", newMessage: text("question"), ...ids };
    const first = await collect(h.runner, request);
    expect(first.map((e) => e.errorCode)).toEqual(["MODEL_BAD_REQUEST"]);
    const second = await collect(h.runner, request);
    expect(second.map((e) => e.content?.parts?.[0]?.text)).toEqual(["second try"]);
    const prompt = JSON.stringify(model.calls[1]?.prompt);
    expect(prompt.split("question").length - 1).toBe(1);
    const stored = (await h.session()).events;
    expect(stored.map((e) => [e.author, e.errorCode ?? e.content?.parts?.[0]?.text])).toEqual([
      ["user", "question"],
      ["a", "MODEL_BAD_REQUEST"],
      ["a", "second try"],
    ]);
  });
});
