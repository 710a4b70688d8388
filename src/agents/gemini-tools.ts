import { BatonError } from "../core/errors.js";
import type { GeminiBuiltInTool, LlmRequest, ModelSpec } from "../core/llm.js";
import { lookupTable } from "../core/lookup-table.js";
import type { RequestTool } from "./request-tool.js";

/** `provider:` prefixes whose models are Gemini models served by Google's API (AI SDK `@ai-sdk/google`, Vertex). */
export const GEMINI_PROVIDERS = ["google", "vertex"] as const;

/** ADK's `extract_model_name`: `projects/…/models/X`, `models/X` and `apigee/…/X` name the model `X`. */
export function extractModelName(name: string): string {
  const path = /^projects\/[^/]+\/locations\/[^/]+\/publishers\/[^/]+\/models\/(.+)$/.exec(name);
  if (path?.[1]) return path[1];
  return name.startsWith("models/") ? name.slice("models/".length) : name;
}

/** The model's name as ADK sees it: a `provider:model` string without its provider, a model object's id. */
export function modelNameOf(model: ModelSpec | undefined): string | undefined {
  if (model === undefined) return undefined;
  return extractModelName(typeof model === "string" ? model.replace(/^[\w-]+:/, "") : model.modelId);
}

const isGemini1 = (name: string): boolean => /^gemini-1\.\d+/.test(name);
/** ADK's `is_gemini_2_or_above`: the version after `gemini-` is 2 or more. */
const isGemini2OrAbove = (name: string): boolean => {
  const major = /^gemini-(\d+)(?:\.\d+)*(?:-|$)/.exec(name)?.[1];
  return major !== undefined && Number(major) >= 2;
};

/** Why this model cannot take Gemini's built-in tools, or `undefined` when it can. */
function unsupportedBecause(model: ModelSpec, label: string): string | undefined {
  const shown = typeof model === "string" ? model : `${model.provider}:${model.modelId}`;
  const provider = typeof model === "string" ? /^([\w-]+):/.exec(model)?.[1] : undefined;
  if (provider !== undefined && !GEMINI_PROVIDERS.some((p) => p === provider)) {
    return `${label} is not supported for model ${shown}: Gemini's built-in tools run only on Gemini models (google: or vertex:)`;
  }
  const name = modelNameOf(model) ?? "";
  if (isGemini1(name)) return `${label} can not be used with Gemini 1.x models (model ${shown})`;
  if (!isGemini2OrAbove(name)) return `${label} is not supported for model ${shown}`;
  return undefined;
}

/** One of Gemini's built-in tools: the model runs it; the request only enables it (`{"googleSearch": {}}`). */
class GeminiBuiltIn implements RequestTool {
  readonly kind = "request";

  constructor(
    readonly name: string,
    /** The key Gemini's API gives it in `tools`. */
    readonly builtIn: GeminiBuiltInTool,
    /** How ADK's error messages name it (`Google search tool`). */
    private readonly label: string,
  ) {}

  checkModel(model: ModelSpec | undefined, agentName: string): void {
    const why = model === undefined ? undefined : unsupportedBecause(model, this.label);
    if (why !== undefined) throw new BatonError("invalid_config", `LlmAgent "${agentName}": ${why}.`);
  }

  processRequest(request: LlmRequest, ctx: { modelName: string | undefined }): void {
    const name = ctx.modelName ?? "";
    if (!isGemini2OrAbove(name)) {
      throw new BatonError("MODEL_CONFIG", `${this.label} is not supported for model ${name || "(none)"}.`);
    }
    request.builtInTools = [...(request.builtInTools ?? []), this.builtIn];
  }
}

/**
 * Gemini's Google Search grounding (ADK `google_search`; adk-js `GOOGLE_SEARCH`): the model searches the web
 * itself and answers with `groundingMetadata`, which Baton keeps on the event. Gemini 2 or newer only; any
 * other model is a configuration error when the app is defined.
 * @example
 * const researcher = new LlmAgent({ name: "researcher", model: "google:gemini-2.5-flash", tools: [googleSearch] });
 */
export const googleSearch: RequestTool = new GeminiBuiltIn(
  "google_search",
  "googleSearch",
  "Google search tool",
);

/** Gemini's URL context (ADK `url_context`): the model reads the URLs in the prompt itself. */
export const urlContext: RequestTool = new GeminiBuiltIn("url_context", "urlContext", "Url context tool");

/** Gemini's Google Maps grounding (ADK `google_maps_grounding`, `{"googleMaps": {}}` in the request). */
export const googleMapsGrounding: RequestTool = new GeminiBuiltIn(
  "google_maps_grounding",
  "googleMaps",
  "Google Maps grounding tool",
);

/**
 * ADK's `BuiltInCodeExecutor`: Gemini runs the code it writes itself (`{"codeExecution": {}}`); the event keeps
 * the `executableCode` and `codeExecutionResult` parts. The only code executor Baton has: a Worker cannot run
 * Python, so ADK's other executors (unsafe local, container, Vertex code interpreter) are not offered.
 * @example
 * new LlmAgent({ name: "analyst", model: "google:gemini-2.5-flash", codeExecutor: new BuiltInCodeExecutor() });
 */
export class BuiltInCodeExecutor extends GeminiBuiltIn {
  constructor() {
    super("code_execution", "codeExecution", "Gemini code execution tool");
  }
}

/** The built-in tools by their ADK (Python) names, as Agent Config YAML names them. */
export const GEMINI_TOOLS_BY_YAML_NAME: Readonly<Record<string, RequestTool>> = lookupTable({
  google_search: googleSearch,
  url_context: urlContext,
  google_maps_grounding: googleMapsGrounding,
});
