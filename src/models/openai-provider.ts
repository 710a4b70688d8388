import { createOpenAI } from "@ai-sdk/openai";
import { type ModelProvider, optionalSetting, requiredSetting } from "./model-provider.js";

/**
 * `openai:<model>` through `@ai-sdk/openai`, with `OPENAI_API_KEY` (and `OPENAI_BASE_URL`) from the env.
 * @example
 * import { openai } from "@baton-agents/core/models/openai";
 * createWorker({ apps: [helpdesk], models: [openai()] });
 */
export function openai(): ModelProvider {
  return {
    name: "openai",
    model(modelId, env, spec) {
      const apiKey = requiredSetting(env, "OPENAI_API_KEY", spec);
      const baseURL = optionalSetting(env, "OPENAI_BASE_URL");
      return createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}) })(modelId);
    },
  };
}
