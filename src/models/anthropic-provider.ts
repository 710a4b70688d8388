import { createAnthropic } from "@ai-sdk/anthropic";
import { type ModelProvider, requiredSetting } from "./model-provider.js";

/**
 * `anthropic:<model>` through `@ai-sdk/anthropic`, with `ANTHROPIC_API_KEY` from the env.
 * @example
 * import { anthropic } from "@baton-agents/core/models/anthropic";
 * createWorker({ apps: [helpdesk], models: [anthropic()] });
 */
export function anthropic(): ModelProvider {
  return {
    name: "anthropic",
    model: (modelId, env, spec) =>
      createAnthropic({ apiKey: requiredSetting(env, "ANTHROPIC_API_KEY", spec) })(modelId),
  };
}
