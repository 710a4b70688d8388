import type { LanguageModelV2 } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { BatonError } from "../../../src/core/errors.js";
import { resolveModel } from "../../../src/models/resolve-model.js";

const fakeAi = { run: async () => ({ response: "hi" }) };

describe("resolveModel", () => {
  it.each([
    ["openai:gpt-4.1-mini", { OPENAI_API_KEY: "k" }, "openai", "gpt-4.1-mini"],
    ["google:gemini-2.5-flash", { GOOGLE_GENERATIVE_AI_API_KEY: "k" }, "google", "gemini-2.5-flash"],
    ["anthropic:claude-sonnet-4-5", { ANTHROPIC_API_KEY: "k" }, "anthropic", "claude-sonnet-4-5"],
    [
      "openai-compatible:llama3.2:3b",
      { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1" },
      "openai-compatible",
      "llama3.2:3b",
    ],
    [
      "workers-ai:@cf/meta/llama-3.1-8b-instruct",
      { AI: fakeAi },
      "workersai",
      "@cf/meta/llama-3.1-8b-instruct",
    ],
    ["demo:billing", {}, "demo", "billing"],
  ])("resolves %s to a v3 model of its provider", (spec, env, provider, modelId) => {
    const model = resolveModel(spec, env);
    expect(model.specificationVersion).toBe("v3");
    expect(model.provider.startsWith(provider)).toBe(true);
    expect(model.modelId).toBe(modelId);
  });

  it("keeps everything after the first colon as the model id", () => {
    const env = { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1/v1" };
    expect(resolveModel("openai-compatible:meta/llama-3:8b:q4", env).modelId).toBe("meta/llama-3:8b:q4");
  });

  it.each([
    ["openai:gpt-4.1", "OPENAI_API_KEY"],
    ["google:gemini-2.5-flash", "GOOGLE_GENERATIVE_AI_API_KEY"],
    ["anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
    ["openai-compatible:llama3", "OPENAI_COMPATIBLE_BASE_URL"],
  ])("fails with MODEL_CONFIG naming the variable when %s has no %s", (spec, variable) => {
    const attempt = () => resolveModel(spec, { [variable]: "  ", OTHER: "x" });
    expect(attempt).toThrow(BatonError);
    expect(attempt).toThrow(variable);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: "MODEL_CONFIG" });
    }
  });

  it("fails with MODEL_CONFIG when workers-ai has no AI binding", () => {
    expect(() => resolveModel("workers-ai:@cf/x", { AI: "not a binding" })).toThrow(/AI/);
  });

  it("rejects an unknown provider, a missing provider and a missing model id", () => {
    expect(() => resolveModel("mistral:large", {})).toThrow(/Unknown model provider "mistral".*openai, /);
    expect(() => resolveModel("gpt-4", {})).toThrow(/no provider/);
    expect(() => resolveModel("toString:x", {})).toThrow(/Unknown model provider/);
    expect(() => resolveModel("openai:", { OPENAI_API_KEY: "k" })).toThrow(/names no model/);
  });

  it("passes a model object through", () => {
    const model = new MockLanguageModelV3();
    expect(resolveModel(model, {})).toBe(model);
  });

  it("rejects a model object of the old v2 interface with MODEL_CONFIG", () => {
    const v2: LanguageModelV2 = {
      specificationVersion: "v2",
      provider: "old",
      modelId: "m",
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error("unused")),
      doStream: () => Promise.reject(new Error("unused")),
    };
    expect(() => resolveModel(v2, {})).toThrow(/v2 interface/);
  });

  it("builds the provider per call from the env it is given", () => {
    const a = resolveModel("openai:gpt-4.1", { OPENAI_API_KEY: "a" });
    const b = resolveModel("openai:gpt-4.1", { OPENAI_API_KEY: "b" });
    expect(a).not.toBe(b);
  });
});

describe("resolveModel caching", () => {
  it("reuses the model it built for the same env and spec, and builds afresh for a new env", () => {
    const env = { OPENAI_API_KEY: "sk-test-1" };
    const first = resolveModel("openai:gpt-4.1-mini", env);
    expect(resolveModel("openai:gpt-4.1-mini", env)).toBe(first);
    expect(resolveModel("openai:gpt-4.1", env)).not.toBe(first);
    expect(resolveModel("openai:gpt-4.1-mini", { OPENAI_API_KEY: "sk-test-2" })).not.toBe(first);
  });
});
