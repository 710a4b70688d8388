import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { type ModelProvider, optionalSetting, requiredSetting } from "./model-provider.js";

/**
 * `openai-compatible:<model>`: any Chat Completions server (Ollama, vLLM, OpenRouter…) at
 * `OPENAI_COMPATIBLE_BASE_URL`, with `OPENAI_COMPATIBLE_API_KEY` when it needs one.
 * @example
 * import { openaiCompatible } from "@baton-agents/core/models/openai-compatible";
 * createWorker({ apps: [helpdesk], models: [openaiCompatible()] });
 */
export function openaiCompatible(): ModelProvider {
  return {
    name: "openai-compatible",
    model(modelId, env, spec) {
      const apiKey = optionalSetting(env, "OPENAI_COMPATIBLE_API_KEY");
      const baseURL = requiredSetting(env, "OPENAI_COMPATIBLE_BASE_URL", spec);
      const provider = createOpenAICompatible({
        name: "openai-compatible",
        baseURL,
        includeUsage: true,
        ...(apiKey ? { apiKey } : {}),
      });
      return provider.chatModel(modelId);
    },
  };
}
