import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
} from "@ai-sdk/provider";
import { convertUint8ArrayToBase64 } from "@ai-sdk/provider-utils";
import type { Part } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import type { LlmResponse } from "../core/llm.js";

/** Gemini's thought signature, which must travel back with the part (see `convert.ts`). */
export function thoughtSignatureOf(metadata: SharedV3ProviderMetadata | undefined): string | undefined {
  const signature = metadata?.google?.thoughtSignature ?? metadata?.vertex?.thoughtSignature;
  return typeof signature === "string" ? signature : undefined;
}

const signed = (part: Part, metadata: SharedV3ProviderMetadata | undefined): Part => {
  const thoughtSignature = thoughtSignatureOf(metadata);
  return thoughtSignature === undefined ? part : { ...part, thoughtSignature };
};

/** Tool-call input is JSON text; an empty string means no arguments. */
export function parseToolInput(input: string, toolName: string): Record<string, unknown> {
  if (input.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (error) {
    throw new BatonError("MODEL_ERROR", `The model called ${toolName} with arguments that are not JSON.`, {
      cause: error,
    });
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return { ...value };
  return { value };
}

/** The AI SDK Google provider's name for Gemini's code execution (its `executableCode` / `codeExecutionResult` parts). */
const CODE_EXECUTION = "code_execution";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `{"language", "code"}` (the provider's JSON of Gemini's part) as an `executableCode` part. */
function executableCodeOf(input: string): Part | undefined {
  const parsed = parseToolInput(input, CODE_EXECUTION);
  if (typeof parsed.code !== "string") return undefined;
  return {
    executableCode: {
      code: parsed.code,
      ...(typeof parsed.language === "string" ? { language: parsed.language } : {}),
    },
  };
}

/** `{"outcome", "output"}` as a `codeExecutionResult` part. */
function codeExecutionResultOf(result: unknown): Part | undefined {
  if (!isRecord(result)) return undefined;
  const { outcome, output } = result;
  return {
    codeExecutionResult: {
      ...(typeof outcome === "string" ? { outcome } : {}),
      ...(typeof output === "string" ? { output } : {}),
    },
  };
}

/**
 * Gemini's grounding metadata (Google Search, Maps, URL context), which `@ai-sdk/google` passes on as
 * `providerMetadata.google.groundingMetadata` (`vertex` for Vertex): ADK keeps it on the event as it came.
 */
export function groundingMetadataOf(
  metadata: SharedV3ProviderMetadata | undefined,
): Record<string, unknown> | undefined {
  const grounding = metadata?.google?.groundingMetadata ?? metadata?.vertex?.groundingMetadata;
  return isRecord(grounding) ? { ...grounding } : undefined;
}

/** One output part in ADK form: an empty provider id is left undefined, so the agent mints an `adk-` id. */
export function partFromOutput(output: LanguageModelV3Content): Part | undefined {
  switch (output.type) {
    case "text":
      return output.text || thoughtSignatureOf(output.providerMetadata)
        ? signed({ text: output.text }, output.providerMetadata)
        : undefined;
    case "reasoning":
      return signed({ text: output.text, thought: true }, output.providerMetadata);
    case "tool-call": {
      // Gemini's code execution: the code it ran, as genai's `executableCode` part (ADK keeps it on the event).
      if (output.providerExecuted && output.toolName === CODE_EXECUTION)
        return executableCodeOf(output.input);
      // Other provider-executed tools already ran on the provider's side; there is nothing for the agent to do.
      if (output.providerExecuted) return undefined;
      const args = parseToolInput(output.input, output.toolName);
      const call = { ...(output.toolCallId ? { id: output.toolCallId } : {}), name: output.toolName, args };
      return signed({ functionCall: call }, output.providerMetadata);
    }
    case "tool-result":
      return output.toolName === CODE_EXECUTION ? codeExecutionResultOf(output.result) : undefined;
    case "file": {
      const data = typeof output.data === "string" ? output.data : convertUint8ArrayToBase64(output.data);
      return { inlineData: { mimeType: output.mediaType, data } };
    }
    default:
      return undefined;
  }
}

const ADK_FINISH: Record<LanguageModelV3FinishReason["unified"], string> = {
  stop: "STOP",
  length: "MAX_TOKENS",
  "content-filter": "SAFETY",
  "tool-calls": "STOP",
  other: "OTHER",
  error: "OTHER",
};

/** ADK's finish name. Gemini's own upper-case reasons (RECITATION, MALFORMED_FUNCTION_CALL, …) pass through. */
export function finishReasonName(reason: LanguageModelV3FinishReason): string {
  // closed key: the AI SDK's unified finish reason, one of the six by its type.
  return isGenaiName(reason.raw) ? reason.raw : ADK_FINISH[reason.unified];
}

const isGenaiName = (raw: string | undefined): raw is string =>
  raw !== undefined && /^[A-Z][A-Z_]*$/.test(raw);

/** AI SDK usage → genai `usageMetadata`; unknown counts are left out. */
export function usageMetadataOf(usage: LanguageModelV3Usage | undefined): Record<string, number> | undefined {
  if (!usage) return undefined;
  const prompt = usage.inputTokens.total;
  const candidates = usage.outputTokens.total;
  const metadata: Record<string, number> = {};
  if (prompt !== undefined) metadata.promptTokenCount = prompt;
  if (candidates !== undefined) metadata.candidatesTokenCount = candidates;
  const thoughts = usage.outputTokens.reasoning;
  if (thoughts) metadata.thoughtsTokenCount = thoughts;
  if (prompt !== undefined || candidates !== undefined)
    metadata.totalTokenCount = (prompt ?? 0) + (candidates ?? 0);
  return Object.keys(metadata).length > 0 ? metadata : undefined;
}

/** What a finished call produced, before the ADK rules for empty answers apply. */
export interface FinishedOutput {
  parts: Part[];
  finishReason: LanguageModelV3FinishReason;
  usage?: LanguageModelV3Usage | undefined;
  modelVersion: string;
  streaming: boolean;
  /** Gemini's grounding metadata of the answer, when it has one (`groundingMetadataOf`). */
  groundingMetadata?: Record<string, unknown> | undefined;
}

/**
 * The final LlmResponse. No content and a finish other than STOP → `errorCode` = the finish name
 * (SAFETY, MAX_TOKENS, …; ADK-SEMANTICS §7.3). A non-streaming STOP with no content →
 * `MODEL_RETURNED_NO_CONTENT` (§1.5). A finish of `error` throws `MODEL_ERROR`, unless the provider
 * named it in genai's words (Gemini's MALFORMED_FUNCTION_CALL), which then follows the rule above.
 */
export function finalResponse(output: FinishedOutput): LlmResponse {
  const { unified, raw } = output.finishReason;
  if (unified === "error" && !isGenaiName(raw)) {
    throw new BatonError("MODEL_ERROR", `The model stopped with an error (${raw ?? "no reason given"}).`);
  }
  const finishReason = finishReasonName(output.finishReason);
  const usageMetadata = usageMetadataOf(output.usage);
  const base: LlmResponse = { finishReason, modelVersion: output.modelVersion };
  if (usageMetadata) base.usageMetadata = usageMetadata;
  if (output.groundingMetadata) base.groundingMetadata = output.groundingMetadata;
  if (output.parts.length > 0) {
    base.content = { role: "model", parts: output.parts };
    return base;
  }
  if (finishReason !== "STOP") {
    return {
      ...base,
      errorCode: finishReason,
      errorMessage: `The model stopped (${finishReason}) without content.`,
    };
  }
  if (output.streaming) return base;
  return { ...base, errorCode: "MODEL_RETURNED_NO_CONTENT", errorMessage: "The model returned no content." };
}
