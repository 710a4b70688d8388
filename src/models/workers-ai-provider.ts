import { createWorkersAI } from "workers-ai-provider";
import { type ModelProvider, modelConfigError } from "./model-provider.js";

// A type guard rather than a cast: anything with a `run` method is accepted as the binding.
function isAiBinding(value: unknown): value is Ai {
  return typeof value === "object" && value !== null && "run" in value && typeof value.run === "function";
}

/**
 * `workers-ai:<model>` through the Worker's `AI` binding (`[ai] binding = "AI"` in wrangler.toml).
 * @example
 * import { workersAi } from "@baton-agents/core/models/workers-ai";
 * createWorker({ apps: [helpdesk], models: [workersAi()] });
 */
export function workersAi(): ModelProvider {
  return {
    name: "workers-ai",
    model(modelId, env, spec) {
      const binding = env.AI;
      if (!isAiBinding(binding)) {
        throw modelConfigError(
          `Model "${spec}" needs the Workers AI binding: add \`[ai] binding = "AI"\` to wrangler.toml.`,
        );
      }
      return createWorkersAI({ binding })(modelId);
    },
  };
}
