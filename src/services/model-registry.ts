/**
 * The model registry and model port as the entries offer them: Baton's AI SDK port with the built-in
 * `demo:` provider registered first, so `npm run dev` and tests run offline with no key. `models/` itself
 * knows no demo; this is where it is wired in.
 */

import type { ModelPort } from "../core/ports.js";
import { demoProvider } from "../demo-model/provider.js";
import { modelPortOver } from "../models/ai-sdk-model-port.js";
import type { ModelProvider } from "../models/model-provider.js";
import { ProviderRegistry } from "../models/model-registry.js";

/**
 * The providers a Worker or runner registered, by prefix; `demo` is always there, first. Turns
 * `provider:model` strings (agents' `model`, Agent Config YAML's `model:`) into AI SDK models and keeps
 * each env's models.
 * @example
 * const models = new ModelRegistry([openaiCompatible(), google()]);
 * models.resolve("google:gemini-2.5-flash", env); // needs env.GOOGLE_GENERATIVE_AI_API_KEY
 */
export class ModelRegistry extends ProviderRegistry {
  constructor(providers: readonly ModelProvider[] = []) {
    super([demoProvider, ...providers]);
  }
}

/**
 * The model port over the AI SDK: `provider:model` strings resolve through the given providers (plus the
 * built-in `demo`) configured from the invocation's env, model objects pass through, and calls retry with
 * the invocation's sleep, randomness and clock.
 * @example
 * const runner = new Runner({ app, sessionStore, services: { models: aiSdkModelPort([openai()]) } });
 */
export function aiSdkModelPort(providers: readonly ModelProvider[] | ModelRegistry = []): ModelPort {
  return modelPortOver(providers instanceof ProviderRegistry ? providers : new ModelRegistry(providers));
}
