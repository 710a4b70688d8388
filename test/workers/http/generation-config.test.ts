import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import { fakeModelServer } from "../support/fake-model.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";

describe("generateContentConfig over HTTP", () => {
  it("reaches an OpenAI-compatible provider's request as its own sampling fields", async () => {
    const fake = fakeModelServer();
    const ids = freshIds("gen");
    const agent = new LlmAgent({
      name: "tuned",
      model: "openai-compatible:tuned-model",
      generateContentConfig: {
        temperature: 0.3,
        topP: 0.8,
        maxOutputTokens: 64,
        stopSequences: ["END"],
        seed: 11,
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        responseMimeType: "application/json",
      },
    });
    const call = callWorker(
      { apps: [defineApp({ name: ids.app, rootAgent: agent })], services: { sleep: noSleep } },
      { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() },
    );
    await sessionsOf(call, ids.app, ids.user).create({ sessionId: ids.session });
    await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(ids.app, ids.user, ids.session, "hi") }),
      200,
    );
    const { calls } = await fake.calls();
    expect(calls[0]?.settings).toMatchObject({
      temperature: 0.3,
      top_p: 0.8,
      max_tokens: 64,
      stop: ["END"],
      seed: 11,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      response_format: { type: "json_object" },
    });
  });
});
