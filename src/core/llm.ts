import type { Content } from "./content.js";
import type { GenerateContentConfig } from "./generate-content-config.js";

/** One tool as the model sees it: a name, a description and a JSON Schema for its arguments. */
export interface ToolDeclaration {
  name: string;
  description: string;
  /**
   * JSON Schema (draft 7 or 2020-12) of the arguments object. Absent for a function that takes no
   * arguments, as ADK declares it (`exit_loop`): providers then get an empty object schema.
   */
  parameters?: Record<string, unknown>;
}

/**
 * Gemini's built-in tools, by the key Gemini's API gives each in a request's `tools`
 * (`{"googleSearch": {}}`): the model runs them itself, so they have no declaration.
 */
export const GEMINI_BUILT_IN_TOOLS = ["googleSearch", "urlContext", "googleMaps", "codeExecution"] as const;
export type GeminiBuiltInTool = (typeof GEMINI_BUILT_IN_TOOLS)[number];

/** What an agent sends to a model for one step. */
export interface LlmRequest {
  /** The system instruction blocks, already joined with blank lines. Empty for none. */
  systemInstruction: string;
  /** The history, in ADK content form (roles `user` and `model`). */
  contents: Content[];
  tools: ToolDeclaration[];
  /** Gemini's built-in tools the request enables, in the order ADK appends them (only Gemini models take them). */
  builtInTools?: GeminiBuiltInTool[];
  /** Sampling and output settings (ADK `LlmRequest.config`): the agent's `generateContentConfig`, plus JSON mode for an `outputSchema`. Callbacks may change it. */
  config: GenerateContentConfig;
}

/** One model response or streaming chunk, in ADK form. */
export interface LlmResponse {
  content?: Content;
  /** A streaming chunk: yielded, never persisted. The aggregated response follows with `partial` unset. */
  partial?: boolean;
  finishReason?: string;
  /** Set for a finish such as SAFETY with no content (ADK-SEMANTICS §7.3). */
  errorCode?: string;
  errorMessage?: string;
  usageMetadata?: Record<string, unknown>;
  modelVersion?: string;
  avgLogprobs?: number;
  groundingMetadata?: Record<string, unknown>;
  citationMetadata?: Record<string, unknown>;
  customMetadata?: Record<string, unknown>;
}

/** Retry policy for model calls (408, 429, 5xx and network errors). `attempts` counts the first try. */
export interface RetryPolicy {
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 500, maxDelayMs: 8_000 };

/**
 * A model object passed as is, such as an AI SDK `LanguageModel`. Core knows only its identity; the
 * model port (`models/`) checks that it implements an interface it can call.
 */
export interface ModelObject {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
}

/** A `provider:model` string (`openai:gpt-4.1-mini`, `demo:`…) or a model object. */
export type ModelSpec = string | ModelObject;

/** A declaration's arguments schema for providers that need one: an empty object schema when it has none. */
export const argumentsSchema = (tool: ToolDeclaration): Record<string, unknown> =>
  tool.parameters ?? { type: "object", properties: {} };
