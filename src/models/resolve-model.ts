import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createWorkersAI } from "workers-ai-provider";
import { BatonError } from "../core/errors.js";
import type { ModelObject, ModelSpec } from "../core/llm.js";
import type { Env } from "../core/ports.js";
import { createDemoModel } from "../demo/model.js";

const config = (message: string): BatonError => new BatonError("MODEL_CONFIG", message);

/** An AI SDK model object of the interface this module calls (`LanguageModelV3`). */
function isV3Model(spec: ModelObject): spec is LanguageModelV3 {
  return spec.specificationVersion === "v3" && "doGenerate" in spec && "doStream" in spec;
}

function required(env: Env, name: string, spec: string): string {
  const value = env[name];
  if (typeof value === "string" && value.trim() !== "") return value;
  throw config(
    `Model "${spec}" needs ${name}: set it in .dev.vars locally or with \`wrangler secret put ${name}\`.`,
  );
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

// A type guard rather than a cast: anything with a `run` method is accepted as the binding.
function isAiBinding(value: unknown): value is Ai {
  return typeof value === "object" && value !== null && "run" in value && typeof value.run === "function";
}

type Factory = (id: string, env: Env, spec: string) => LanguageModelV3;

// Providers are built per call: on Workers the env (and so the keys) arrive with each request.
const PROVIDERS = new Map<string, Factory>(
  Object.entries({
    openai: (id, env, spec) => {
      const apiKey = required(env, "OPENAI_API_KEY", spec);
      const baseURL = optional(env, "OPENAI_BASE_URL");
      return createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}) })(id);
    },
    "openai-compatible": (id, env, spec) => {
      const apiKey = optional(env, "OPENAI_COMPATIBLE_API_KEY");
      const baseURL = required(env, "OPENAI_COMPATIBLE_BASE_URL", spec);
      const provider = createOpenAICompatible({
        name: "openai-compatible",
        baseURL,
        includeUsage: true,
        ...(apiKey ? { apiKey } : {}),
      });
      return provider.chatModel(id);
    },
    google: (id, env, spec) =>
      createGoogleGenerativeAI({ apiKey: required(env, "GOOGLE_GENERATIVE_AI_API_KEY", spec) })(id),
    anthropic: (id, env, spec) => createAnthropic({ apiKey: required(env, "ANTHROPIC_API_KEY", spec) })(id),
    "workers-ai": (id, env, spec) => {
      const binding = env.AI;
      if (!isAiBinding(binding)) {
        throw config(
          `Model "${spec}" needs the Workers AI binding: add \`[ai] binding = "AI"\` to wrangler.toml.`,
        );
      }
      return createWorkersAI({ binding })(id);
    },
    demo: (id: string) => createDemoModel(id),
  } satisfies Record<string, Factory>),
);

/** The provider prefixes `resolveModel` understands. */
export const MODEL_PROVIDERS: readonly string[] = [...PROVIDERS.keys()];

/**
 * Turns a `provider:model` string into an AI SDK model, configured from `env`; the model id is everything
 * after the first colon (`openai-compatible:meta/llama-3:8b` → `meta/llama-3:8b`). A model object passes
 * through. Throws `BatonError("MODEL_CONFIG")` naming the missing setting or the unknown provider.
 *
 * @example
 * resolveModel("google:gemini-2.5-flash", env); // needs env.GOOGLE_GENERATIVE_AI_API_KEY
 */
export function resolveModel(spec: ModelSpec, env: Env): LanguageModelV3 {
  if (typeof spec !== "string") {
    if (isV3Model(spec)) return spec;
    throw config(
      `Model object ${spec.provider}:${spec.modelId} implements the old v2 interface; update its provider package.`,
    );
  }
  const colon = spec.indexOf(":");
  if (colon <= 0)
    throw config(`Model "${spec}" has no provider: write it as provider:model, e.g. "openai:gpt-4.1-mini".`);
  const name = spec.slice(0, colon);
  const id = spec.slice(colon + 1);
  const factory = PROVIDERS.get(name);
  if (!factory)
    throw config(`Unknown model provider "${name}" in "${spec}"; use one of ${MODEL_PROVIDERS.join(", ")}.`);
  if (id.trim() === "") throw config(`Model "${spec}" names no model after "${name}:".`);
  // Building a provider model costs about a millisecond (schemas are made in its constructor), so each
  // env keeps the models it has built: a new env object (new keys) starts afresh.
  const models = MODELS_BY_ENV.get(env) ?? new Map<string, LanguageModelV3>();
  MODELS_BY_ENV.set(env, models);
  const model = models.get(spec) ?? factory(id, env, spec);
  models.set(spec, model);
  return model;
}

const MODELS_BY_ENV = new WeakMap<Env, Map<string, LanguageModelV3>>();
