/**
 * `bare:<model>`: a chat-completions model written by hand for the bench (text only, not streamed, no AI
 * SDK), the same fetch and JSON the baseline makes. A Baton app on it against the same app on
 * `openai-compatible:` shows what the AI SDK's client costs a turn, apart from the rest of Baton.
 */
import type { LanguageModelV3, LanguageModelV3Message } from "@ai-sdk/provider";
import type { ModelProvider } from "../../src/models/model-provider.js";
import { answerOf } from "./baseline.js";

const textOf = (message: LanguageModelV3Message): string =>
  typeof message.content === "string"
    ? message.content
    : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");

function bareModel(modelId: string, baseUrl: string): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "bare",
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const messages = options.prompt.map((m) => ({ role: m.role, content: textOf(m) }));
      const response = await fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: modelId, messages }),
      });
      return {
        content: [{ type: "text", text: answerOf(await response.json()) }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 7, text: 7, reasoning: undefined },
        },
        warnings: [],
        response: { modelId },
      };
    },
    doStream() {
      throw new Error("The bench's bare model does not stream.");
    },
  };
}

/** The `bare` provider, at the fake model's `OPENAI_COMPATIBLE_BASE_URL`. */
export const bareModels = (): ModelProvider => ({
  name: "bare",
  model: (modelId, env) => bareModel(modelId, String(env.OPENAI_COMPATIBLE_BASE_URL)),
});
