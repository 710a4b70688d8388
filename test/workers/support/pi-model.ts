import type { Model } from "@mariozechner/pi-ai";

/** A pi-ai model on the fake OpenAI-compatible server's Chat Completions route: no key, no outside address. */
export function fakePiModel(baseUrl: string, id: string): Model<"openai-completions"> {
  return {
    id,
    name: id,
    api: "openai-completions",
    provider: "fake",
    baseUrl,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 32_000,
    maxTokens: 1_000,
  };
}
