import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { geminiLiveModel } from "../live/gemini/gemini-live-model.js";
import { type ModelProvider, optionalSetting, requiredSetting } from "./model-provider.js";

export { type GeminiLiveOptions, geminiLiveModel } from "../live/gemini/gemini-live-model.js";

/**
 * `google:<model>` (Gemini) through `@ai-sdk/google`, with `GOOGLE_GENERATIVE_AI_API_KEY` (and
 * `GOOGLE_GENERATIVE_AI_BASE_URL`, for a gateway or proxy) from the env. Agent Config YAML's bare model names
 * (`gemini-2.5-flash`) resolve here. Gemini's built-in tools (`googleSearch`, …) reach the API through it.
 * Its live models (`/run_live`) are Gemini Live's, with the same settings (`geminiLiveModel`).
 * @example
 * import { google } from "@baton-agents/core/models/google";
 * createWorker({ apps: [helpdesk], models: [google()] });
 */
export function google(): ModelProvider {
  return {
    name: "google",
    model(modelId, env, spec) {
      const apiKey = requiredSetting(env, "GOOGLE_GENERATIVE_AI_API_KEY", spec);
      const baseURL = optionalSetting(env, "GOOGLE_GENERATIVE_AI_BASE_URL");
      return createGoogleGenerativeAI({ apiKey, ...(baseURL ? { baseURL } : {}) })(modelId);
    },
    liveModel(modelId, env, spec) {
      const apiKey = requiredSetting(env, "GOOGLE_GENERATIVE_AI_API_KEY", spec);
      return geminiLiveModel(modelId, {
        apiKey,
        baseUrl: optionalSetting(env, "GOOGLE_GENERATIVE_AI_BASE_URL"),
      });
    },
  };
}
