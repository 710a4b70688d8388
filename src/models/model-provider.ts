import type { LanguageModelV3 } from "@ai-sdk/provider";
import { BatonError } from "../core/errors.js";
import type { LiveModel } from "../core/live-model.js";
import type { Env } from "../core/ports.js";

/**
 * One prefix of `provider:model` strings and how to build its models. Each provider lives in its own
 * entry (`@baton-agents/core/models/google`…), so a Worker bundles only the SDKs of the providers it registers.
 */
export interface ModelProvider {
  /** The prefix it serves: `google` for `google:gemini-2.5-flash`. */
  readonly name: string;
  /**
   * Builds the model `modelId` with the settings in `env` (on Workers the keys arrive with each request).
   * `spec` is the whole string, for error messages. Throws `BatonError("MODEL_CONFIG")` for a missing setting.
   */
  model(modelId: string, env: Env, spec: string): LanguageModelV3;
  /**
   * The live (bidirectional) model `modelId`, for `/run_live` (issue 46); absent for a provider without
   * live models. Throws as `model` does.
   */
  liveModel?(modelId: string, env: Env, spec: string): LiveModel;
}

/** A `MODEL_CONFIG` error: the app's model settings are wrong, not the request. */
export const modelConfigError = (message: string): BatonError => new BatonError("MODEL_CONFIG", message);

/** A non-blank string setting of `env`, or a `MODEL_CONFIG` error saying where to set it. */
export function requiredSetting(env: Env, name: string, spec: string): string {
  const value = optionalSetting(env, name);
  if (value !== undefined) return value;
  throw modelConfigError(
    `Model "${spec}" needs ${name}: set it in .dev.vars locally or with \`wrangler secret put ${name}\`.`,
  );
}

/** A non-blank string setting of `env`, if there is one. */
export function optionalSetting(env: Env, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
