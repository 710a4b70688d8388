import type { ModelProvider } from "../models/model-provider.js";
import { demoLiveModel } from "./live.js";
import { createDemoModel } from "./model.js";

/** The built-in `demo:` provider: deterministic and offline, so it costs nothing to ship; it has a live model too. */
export const demoProvider: ModelProvider = {
  name: "demo",
  model: (modelId) => createDemoModel(modelId),
  liveModel: (modelId) => demoLiveModel(modelId),
};
