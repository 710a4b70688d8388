import type { LanguageModelV3 } from "@ai-sdk/provider";

/** The provider name of the stand-in model; it shows in the error if a model is ever called. */
export const REPLAY_ONLY_PROVIDER = "adk-conformance-replay";

const refuse = (modelId: string): never => {
  throw new Error(
    `Model "${modelId}" was called in replay mode: every model call must be answered by a recording ` +
      "(the replay beforeModel callback did not answer this one).",
  );
};

/**
 * The model an agent gets from its YAML `model` in replay: it carries the recorded model id (the request
 * check compares it) and fails loudly if it is ever called, so no case can reach a real provider.
 */
export function replayOnlyModel(modelId: string): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: REPLAY_ONLY_PROVIDER,
    modelId,
    supportedUrls: {},
    doGenerate: async () => refuse(modelId),
    doStream: async () => refuse(modelId),
  };
}
