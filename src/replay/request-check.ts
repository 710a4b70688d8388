import type { LlmAgent } from "../agents/llm-agent.js";
import { GEMINI_BUILT_IN_TOOLS, type GeminiBuiltInTool, type LlmRequest } from "../core/llm.js";
import { TRANSFER_TOOL_NAME } from "../transfer/constants.js";
import { differences } from "./differences.js";
import { asJson, genaiToCamel, isRecord } from "./genai-keys.js";
import { instructionProblems } from "./instruction-check.js";
import type { RecordedLlmRequest } from "./recordings.js";

/** Python pins this description before comparing: tool docstrings differ between versions. */
const PINNED_TRANSFER_DESCRIPTION = "Transfer the question to another agent.";
/** Request config Python never compares. */
const IGNORED_CONFIG = new Set(["http_options", "labels"]);
/** genai's generation settings (snake_case, as recorded) → Baton's `LlmRequest.config` names. */
const GENERATION_SETTINGS: Readonly<Record<string, keyof LlmRequest["config"]>> = {
  temperature: "temperature",
  top_p: "topP",
  top_k: "topK",
  max_output_tokens: "maxOutputTokens",
  stop_sequences: "stopSequences",
  seed: "seed",
  presence_penalty: "presencePenalty",
  frequency_penalty: "frequencyPenalty",
  response_mime_type: "responseMimeType",
  response_schema: "responseSchema",
};
/** Request config this harness compares; anything else recorded is a setting Baton's LlmRequest lacks. */
const COMPARED_CONFIG = new Set(["system_instruction", "tools", ...Object.keys(GENERATION_SETTINGS)]);
/** Schema keywords Python drops before comparing (plus `$schema`, which only Baton's JSON Schema has). */
const DROPPED_SCHEMA_KEYS = new Set(["title", "default", "description", "$schema"]);

/** Python's schema normalisation: lowercase `type`, no titles/defaults/descriptions, `anyOf[X, null]` → nullable X. */
function normalizeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normalizeSchema);
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_SCHEMA_KEYS.has(key)) continue;
    if (key === "type" && typeof value === "string") out.type = value.toLowerCase();
    else if (key === "properties" && isRecord(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, s]) => [name, normalizeSchema(s)]),
      );
    } else out[key] = normalizeSchema(value);
  }
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && isRecord(anyOf[1]) && anyOf[1].type === "null") {
    delete out.anyOf;
    Object.assign(out, anyOf[0], { nullable: true });
  }
  return out;
}

interface Declaration {
  name: string;
  description: string;
  /** Absent when the declaration has none (ADK's for a function of no arguments): presence is compared too. */
  parameters?: unknown;
}

const normalizeDeclaration = (d: {
  name: unknown;
  description?: unknown;
  parameters?: unknown;
}): Declaration => ({
  name: String(d.name),
  description:
    d.name === TRANSFER_TOOL_NAME ? PINNED_TRANSFER_DESCRIPTION : String(d.description ?? "").trim(),
  ...(d.parameters === undefined ? {} : { parameters: normalizeSchema(d.parameters) }),
});

/** A recorded genai `Tool` that enables one of Gemini's built-in tools (`{"google_search": {}}`), by its key. */
function builtInOf(camel: Record<string, unknown>): GeminiBuiltInTool | undefined {
  const [key, ...more] = Object.keys(camel);
  const value = key === undefined ? undefined : camel[key];
  if (more.length > 0 || !isRecord(value) || Object.keys(value).length > 0) return undefined;
  return GEMINI_BUILT_IN_TOOLS.find((name) => name === key);
}

/**
 * The recorded `config.tools` (genai `Tool[]`): its function declarations as one flat, normalised list, and
 * the built-in tools it enables, in order. (Where the declarations sit among the built-ins is not compared:
 * Baton's request keeps the two apart.)
 */
function recordedTools(
  tools: unknown,
  problems: string[],
): { declarations: Declaration[]; builtIns: GeminiBuiltInTool[] } {
  const declarations: Declaration[] = [];
  const builtIns: GeminiBuiltInTool[] = [];
  if (tools === undefined) return { declarations, builtIns };
  if (!Array.isArray(tools)) {
    problems.push("config.tools is not a list (unsupported)");
    return { declarations, builtIns };
  }
  for (const tool of tools) {
    const camel = genaiToCamel(tool);
    const builtIn = isRecord(camel) ? builtInOf(camel) : undefined;
    if (builtIn !== undefined) {
      builtIns.push(builtIn);
      continue;
    }
    if (!isRecord(camel) || !Array.isArray(camel.functionDeclarations) || Object.keys(camel).length !== 1) {
      problems.push(
        `recorded tool ${JSON.stringify(tool).slice(0, 80)} is neither a function tool nor one of Gemini's built-in tools (unsupported)`,
      );
      continue;
    }
    for (const d of camel.functionDeclarations.filter(isRecord)) {
      declarations.push(
        normalizeDeclaration({
          name: d.name,
          description: d.description,
          parameters: d.parameters ?? d.parametersJsonSchema,
        }),
      );
    }
  }
  return { declarations, builtIns };
}

/** Contents compared exactly, except function-call/response ids: Python strips its own `adk-` ids for Gemini,
 * Baton keeps them (AI SDK providers pair calls and responses by id), so ids are removed on both sides. */
function withoutCallIds(contents: unknown): unknown {
  const copy = asJson(contents);
  if (!Array.isArray(copy)) return copy;
  for (const content of copy) {
    for (const part of isRecord(content) && Array.isArray(content.parts) ? content.parts : []) {
      if (isRecord(part) && isRecord(part.functionCall)) delete part.functionCall.id;
      if (isRecord(part) && isRecord(part.functionResponse)) delete part.functionResponse.id;
    }
  }
  return copy;
}

/** The model's id as ADK records it: a `provider:model` string without its provider. */
/** The generation settings of both sides, by Baton's names (schemas normalised as Python does). */
function generationProblems(live: LlmRequest, recorded: Record<string, unknown>): string[] {
  const want: Record<string, unknown> = {};
  const got: Record<string, unknown> = {};
  for (const [snake, camel] of Object.entries(GENERATION_SETTINGS)) {
    const normal = (value: unknown) => (camel === "responseSchema" ? normalizeSchema(value) : value);
    if (recorded[snake] !== undefined) want[camel] = normal(recorded[snake]);
    if (live.config[camel] !== undefined) got[camel] = normal(live.config[camel]);
  }
  return differences(want, got, "config");
}

const modelIdOf = (agent: LlmAgent): string | undefined => {
  const model = agent.resolvedModel;
  return typeof model === "string" ? model.replace(/^[\w-]+:/, "") : model?.modelId;
};

/**
 * Every way Baton's live request differs from the recorded `llm_request` (Python's `_ConformanceTestGemini`
 * check, ported): model, contents, tool declarations (Python's normalisation), and the system instruction, exactly.
 */
export function requestProblems(live: LlmRequest, recorded: RecordedLlmRequest, agent: LlmAgent): string[] {
  const problems: string[] = [];
  if (recorded.model !== undefined && recorded.model !== modelIdOf(agent)) {
    problems.push(`model: recorded ${recorded.model}, agent has ${modelIdOf(agent)}`);
  }
  const config = recorded.config ?? {};
  for (const key of Object.keys(config)) {
    if (!IGNORED_CONFIG.has(key) && !COMPARED_CONFIG.has(key)) {
      problems.push(`config.${key} is recorded, but Baton's LlmRequest has no such setting (unsupported)`);
    }
  }
  problems.push(...generationProblems(live, config));
  problems.push(
    ...differences(
      withoutCallIds(genaiToCamel(recorded.contents)),
      withoutCallIds(live.contents),
      "contents",
    ),
  );
  const tools = recordedTools(config.tools, problems);
  problems.push(...differences(tools.declarations, live.tools.map(normalizeDeclaration), "tools"));
  problems.push(...differences(tools.builtIns, live.builtInTools ?? [], "builtInTools"));
  const instruction = config.system_instruction;
  if (typeof instruction === "string")
    problems.push(...instructionProblems(live.systemInstruction, instruction));
  else if (instruction !== undefined)
    problems.push("config.system_instruction is not a string (unsupported)");
  else if (live.systemInstruction !== "")
    problems.push("Baton sent a system instruction; the recording has none");
  return problems;
}
