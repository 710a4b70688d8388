import type { LanguageModelV3 } from "@ai-sdk/provider";
import { BatonError } from "../core/errors.js";
import type { LiveModel } from "../core/live-model.js";
import type { ModelObject, ModelSpec } from "../core/llm.js";
import { lookupTable } from "../core/lookup-table.js";
import type { Env } from "../core/ports.js";
import { type ModelProvider, modelConfigError } from "./model-provider.js";

/** Baton's own providers by prefix, with the function their entry exports: named in the unknown-prefix error. */
const BATON_PROVIDERS: Readonly<Record<string, string>> = lookupTable({
  openai: "openai",
  "openai-compatible": "openaiCompatible",
  google: "google",
  anthropic: "anthropic",
  "workers-ai": "workersAi",
});

/** An AI SDK model object of the interface the model port calls (`LanguageModelV3`). */
function isV3Model(spec: ModelObject): spec is LanguageModelV3 {
  return spec.specificationVersion === "v3" && "doGenerate" in spec && "doStream" in spec;
}

/**
 * The providers a Worker or runner registered, by prefix. Turns `provider:model` strings (agents' `model`,
 * Agent Config YAML's `model:`) into AI SDK models and keeps each env's models. The public
 * `ModelRegistry` (`services/model-registry.ts`) is this with the built-in `demo:` provider first.
 */
export class ProviderRegistry {
  /** The registered prefixes, in order. */
  readonly names: readonly string[];
  readonly #providers = new Map<string, ModelProvider>();
  // Building a provider model costs about a millisecond (schemas are made in its constructor), so each
  // env keeps the models it has built: a new env object (new keys) starts afresh.
  readonly #models = new WeakMap<Env, Map<string, LanguageModelV3>>();

  constructor(providers: readonly ModelProvider[] = []) {
    for (const provider of providers) {
      if (!/^[A-Za-z0-9_.-]+$/.test(provider.name))
        throw new BatonError(
          "invalid_config",
          `Model provider name "${provider.name}" must be a plain prefix.`,
        );
      if (this.#providers.has(provider.name))
        throw new BatonError("invalid_config", `Model provider "${provider.name}" is registered twice.`);
      this.#providers.set(provider.name, provider);
    }
    this.names = [...this.#providers.keys()];
  }

  /**
   * The AI SDK model `spec` names; the model id is everything after the first colon
   * (`openai-compatible:meta/llama-3:8b` → `meta/llama-3:8b`). A v3 model object passes through. Throws
   * `BatonError("MODEL_CONFIG")` naming the missing setting, or the registered prefixes for an unknown one.
   */
  resolve(spec: ModelSpec, env: Env): LanguageModelV3 {
    if (typeof spec !== "string") {
      if (isV3Model(spec)) return spec;
      throw modelConfigError(
        `Model object ${spec.provider}:${spec.modelId} implements the old v2 interface; update its provider package.`,
      );
    }
    const { provider, id } = this.#provider(spec);
    if (id.trim() === "") throw modelConfigError(`Model "${spec}" names no model after "${provider.name}:".`);
    const models = this.#models.get(env) ?? new Map<string, LanguageModelV3>();
    this.#models.set(env, models);
    const model = models.get(spec) ?? provider.model(id, env, spec);
    models.set(spec, model);
    return model;
  }

  /**
   * The live model `spec` names (`/run_live`): `demo:` and `google:` have them. Throws
   * `BatonError("MODEL_CONFIG")` for a model object, an unknown prefix, or a provider with no live models.
   */
  resolveLive(spec: ModelSpec, env: Env): LiveModel {
    if (typeof spec !== "string")
      throw modelConfigError(`A live call needs a model named as provider:model, not a model object.`);
    const { provider, id } = this.#provider(spec);
    if (!provider.liveModel)
      throw modelConfigError(`Model provider "${provider.name}" has no live models (in "${spec}").`);
    return provider.liveModel(id, env, spec);
  }

  #provider(spec: string): { provider: ModelProvider; id: string } {
    const colon = spec.indexOf(":");
    if (colon <= 0)
      throw modelConfigError(
        `Model "${spec}" has no provider: write it as provider:model, e.g. "openai:gpt-4.1-mini".`,
      );
    const name = spec.slice(0, colon);
    const provider = this.#providers.get(name);
    if (!provider) throw modelConfigError(this.#unknown(name, spec));
    return { provider, id: spec.slice(colon + 1) };
  }

  #unknown(name: string, spec: string): string {
    const known = `Unknown model provider "${name}" in "${spec}"; registered: ${this.names.join(", ")}.`;
    const entry = BATON_PROVIDERS[name];
    return entry === undefined
      ? `${known} Register a ModelProvider named "${name}" in models.`
      : `${known} Register it: import { ${entry} } from "@baton-agents/core/models/${name}" and pass models: [${entry}()].`;
  }
}
