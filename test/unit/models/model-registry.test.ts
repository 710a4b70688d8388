import type { LanguageModelV2 } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { BatonError } from "../../../src/core/errors.js";
import { anthropic } from "../../../src/models/anthropic-provider.js";
import { google } from "../../../src/models/google-provider.js";
import type { ModelProvider } from "../../../src/models/model-provider.js";
import { openaiCompatible } from "../../../src/models/openai-compatible-provider.js";
import { openai } from "../../../src/models/openai-provider.js";
import { workersAi } from "../../../src/models/workers-ai-provider.js";
import { ModelRegistry } from "../../../src/services/model-registry.js";

const fakeAi = { run: async () => ({ response: "hi" }) };
const all = () => new ModelRegistry([openai(), openaiCompatible(), google(), anthropic(), workersAi()]);

describe("ModelRegistry", () => {
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
  ])("resolves %s to a v3 model of its registered provider", (spec, env, provider, modelId) => {
    const model = all().resolve(spec, env);
    expect(model.specificationVersion).toBe("v3");
    expect(model.provider.startsWith(provider)).toBe(true);
    expect(model.modelId).toBe(modelId);
  });

  it("keeps everything after the first colon as the model id", () => {
    const env = { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1/v1" };
    const model = all().resolve("openai-compatible:meta/llama-3:8b:q4", env);
    expect(model.modelId).toBe("meta/llama-3:8b:q4");
  });

  it.each([
    ["openai:gpt-4.1", "OPENAI_API_KEY"],
    ["google:gemini-2.5-flash", "GOOGLE_GENERATIVE_AI_API_KEY"],
    ["anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
    ["openai-compatible:llama3", "OPENAI_COMPATIBLE_BASE_URL"],
  ])("fails with MODEL_CONFIG naming the variable when %s has no %s", (spec, variable) => {
    const attempt = () => all().resolve(spec, { [variable]: "  ", OTHER: "x" });
    expect(attempt).toThrow(BatonError);
    expect(attempt).toThrow(variable);
    expect(() => attempt()).toThrow(expect.objectContaining({ code: "MODEL_CONFIG" }));
  });

  it("fails with MODEL_CONFIG when workers-ai has no AI binding", () => {
    expect(() => all().resolve("workers-ai:@cf/x", { AI: "not a binding" })).toThrow(/AI/);
  });

  it("rejects a provider it was not given, naming the registered ones and the entry to import", () => {
    const registry = new ModelRegistry([openaiCompatible()]);
    const attempt = () => registry.resolve("google:gemini-2.5-flash", { GOOGLE_GENERATIVE_AI_API_KEY: "k" });
    expect(attempt).toThrow(expect.objectContaining({ code: "MODEL_CONFIG" }));
    expect(attempt).toThrow(/Unknown model provider "google".*registered: demo, openai-compatible\./);
    expect(attempt).toThrow(/import \{ google \} from "@baton-agents\/core\/models\/google"/);
    expect(() => registry.resolve("mistral:large", {})).toThrow(/registered: demo, openai-compatible\./);
  });

  it("rejects a missing provider, an inherited property name and a missing model id", () => {
    expect(() => all().resolve("gpt-4", {})).toThrow(/no provider/);
    expect(() => all().resolve("toString:x", {})).toThrow(/Unknown model provider "toString"/);
    expect(() => all().resolve("constructor:x", {})).toThrow(/Register a ModelProvider named "constructor"/);
    expect(() => all().resolve("openai:", { OPENAI_API_KEY: "k" })).toThrow(/names no model/);
  });

  it("resolves demo: with no provider registered", () => {
    expect(new ModelRegistry().resolve("demo:weather", {}).provider).toBe("demo");
  });

  it("serves a provider of the app's own under its prefix", () => {
    const mock = new MockLanguageModelV3();
    const own: ModelProvider = { name: "mine", model: () => mock };
    const registry = new ModelRegistry([own]);
    expect(registry.names).toEqual(["demo", "mine"]);
    expect(registry.resolve("mine:any", {})).toBe(mock);
  });

  it("refuses two providers of one name and a prefix with a colon", () => {
    expect(() => new ModelRegistry([openai(), openai()])).toThrow(/"openai" is registered twice/);
    expect(() => new ModelRegistry([{ name: "demo", model: () => new MockLanguageModelV3() }])).toThrow(
      /registered twice/,
    );
    expect(() => new ModelRegistry([{ name: "a:b", model: () => new MockLanguageModelV3() }])).toThrow(
      /plain prefix/,
    );
  });

  it("passes a model object through", () => {
    const model = new MockLanguageModelV3();
    expect(new ModelRegistry().resolve(model, {})).toBe(model);
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
    expect(() => new ModelRegistry().resolve(v2, {})).toThrow(/v2 interface/);
  });

  it("reuses the model it built for the same env and spec, and builds afresh for a new env", () => {
    const registry = all();
    const env = { OPENAI_API_KEY: "sk-test-1" };
    const first = registry.resolve("openai:gpt-4.1-mini", env);
    expect(registry.resolve("openai:gpt-4.1-mini", env)).toBe(first);
    expect(registry.resolve("openai:gpt-4.1", env)).not.toBe(first);
    expect(registry.resolve("openai:gpt-4.1-mini", { OPENAI_API_KEY: "sk-test-2" })).not.toBe(first);
  });
});
