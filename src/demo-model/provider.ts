import type { ModelProvider } from "../models/model-provider.js";
import { createDemoModel } from "./model.js";

/** The built-in `demo:` provider: deterministic and offline, so it costs nothing to ship. */
export const demoProvider: ModelProvider = { name: "demo", model: (modelId) => createDemoModel(modelId) };
