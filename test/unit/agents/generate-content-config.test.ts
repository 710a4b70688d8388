import { describe, expect, it } from "vitest";
import { z } from "zod";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { LlmRequest } from "../../../src/core/llm.js";
import { harness } from "../support/harness.js";
import { scriptedModel } from "../support/scripted-model.js";

const settings = {
  temperature: 0.2,
  topP: 0.9,
  topK: 40,
  maxOutputTokens: 256,
  stopSequences: ["END"],
  seed: 7,
  presencePenalty: 0.5,
  frequencyPenalty: -0.5,
};

describe("generateContentConfig", () => {
  it.each(Object.entries(settings))("sends %s to the AI SDK model's call options", async (key, value) => {
    const model = scriptedModel([{ text: "ok" }]);
    const h = await harness(new LlmAgent({ name: "tuned", model, generateContentConfig: { [key]: value } }));
    await h.turn("hi");
    expect(model.calls[0]).toMatchObject({ [key]: value });
  });

  it("sends every setting on a streaming call too, and nothing it was not given", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const h = await harness(new LlmAgent({ name: "tuned", model, generateContentConfig: settings }));
    await h.turn("hi", { streaming: true });
    expect(model.calls[0]).toMatchObject(settings);
    const plain = scriptedModel([{ text: "ok" }]);
    await (await harness(new LlmAgent({ name: "plain", model: plain }))).turn("hi");
    // The turn's abort signal (decision 028: a stopped turn aborts its model call) and the prompt, no setting.
    expect(Object.keys(plain.calls[0] ?? {}).sort()).toEqual(["abortSignal", "prompt"]);
  });

  it("asks for JSON with responseMimeType, and with genai's upper-case responseSchema as JSON Schema", async () => {
    const model = scriptedModel([{ text: "{}" }]);
    const h = await harness(
      new LlmAgent({
        name: "json",
        model,
        generateContentConfig: {
          responseMimeType: "application/json",
          responseSchema: { type: "OBJECT", properties: { city: { type: "STRING" } }, required: ["city"] },
        },
      }),
    );
    await h.turn("hi");
    expect(model.calls[0]?.responseFormat).toEqual({
      type: "json",
      schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    const bare = scriptedModel([{ text: "{}" }]);
    await (
      await harness(
        new LlmAgent({
          name: "bare",
          model: bare,
          generateContentConfig: { responseMimeType: "application/json" },
        }),
      )
    ).turn("hi");
    expect(bare.calls[0]?.responseFormat).toEqual({ type: "json" });
  });

  it("shows the config to callbacks as request.config, and a before-model change reaches the model", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const seen: LlmRequest["config"][] = [];
    const h = await harness(
      new LlmAgent({
        name: "tuned",
        model,
        generateContentConfig: { temperature: 0.2, stopSequences: ["END"] },
        beforeModel: (_ctx, request) => {
          seen.push(structuredClone(request.config));
          request.config.temperature = 0;
          request.config.stopSequences?.push("STOP");
        },
      }),
    );
    await h.turn("hi");
    await h.turn("again");
    expect(seen).toEqual([
      { temperature: 0.2, stopSequences: ["END"] },
      { temperature: 0.2, stopSequences: ["END"] },
    ]);
    expect(model.calls[0]).toMatchObject({ temperature: 0, stopSequences: ["END", "STOP"] });
  });

  it("refuses unknown fields and out-of-range values when the agent is built", () => {
    const bad = (config: Record<string, unknown>) => () =>
      // SAFETY: deliberately wrong input, as an untyped (YAML, JS) caller could pass it.
      new LlmAgent({ name: "bad", generateContentConfig: config as never });
    expect(bad({ tools: [] })).toThrow(/generateContentConfig[\s\S]*tools/);
    expect(bad({ temperature: -1 })).toThrow(/temperature/);
    expect(bad({ maxOutputTokens: 1.5 })).toThrow(/maxOutputTokens/);
  });
});

describe("outputSchema", () => {
  const Forecast = z.object({ city: z.string(), celsius: z.number() });

  it("asks the model for JSON of that schema and stores the parsed value under outputKey", async () => {
    const model = scriptedModel([{ text: '```json\n{"city": "Oslo", "celsius": 3}\n```' }]);
    const h = await harness(
      new LlmAgent({ name: "forecaster", model, outputSchema: Forecast, outputKey: "forecast" }),
    );
    const events = await h.turn("Oslo?");
    expect(model.calls[0]?.responseFormat).toMatchObject({
      type: "json",
      schema: { type: "object", required: ["city", "celsius"] },
    });
    expect(events[0]?.actions.stateDelta).toEqual({ forecast: { city: "Oslo", celsius: 3 } });
  });

  it("fails the agent with a message naming it when the answer does not match", async () => {
    const model = scriptedModel([{ text: '{"city": "Oslo"}' }]);
    const h = await harness(
      new LlmAgent({ name: "forecaster", model, outputSchema: Forecast, outputKey: "forecast" }),
    );
    const events = await h.turn("Oslo?");
    expect(events.at(-1)).toMatchObject({ author: "forecaster", errorCode: "AGENT_ERROR" });
    expect(events.at(-1)?.errorMessage).toContain('Agent "forecaster" answered JSON that does not match');
  });
});
