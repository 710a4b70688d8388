import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { type ModelProvider, requiredSetting } from "./model-provider.js";

/**
 * `google:<model>` (Gemini) through `@ai-sdk/google`, with `GOOGLE_GENERATIVE_AI_API_KEY` from the env.
 * Agent Config YAML's bare model names (`gemini-2.5-flash`) resolve here.
 * @example
 * import { google } from "@baton-agents/core/models/google";
 * createWorker({ apps: [helpdesk], models: [google()] });
 */
export function google(): ModelProvider {
  return {
    name: "google",
    model: (modelId, env, spec) =>
      createGoogleGenerativeAI({ apiKey: requiredSetting(env, "GOOGLE_GENERATIVE_AI_API_KEY", spec) })(
        modelId,
      ),
  };
}
