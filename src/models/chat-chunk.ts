import {
  type JSONObject,
  JSONParseError,
  type LanguageModelV3Usage,
  TypeValidationError,
} from "@ai-sdk/provider";
import { secureJsonParse } from "@ai-sdk/provider-utils";
import * as z from "zod";

/**
 * One `data:` chunk of a streamed Chat Completions answer, as OpenAI-compatible servers send it. Only
 * the fields Baton reads are typed; the rest pass through. Loose where servers differ: a `refusal` that
 * is not a string is ignored, not a failure.
 */
const ToolCallDeltaSchema = z.object({
  index: z.number().nullish(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }),
  // Gemini's OpenAI-compatible endpoint carries a tool call's thought signature here.
  extra_content: z
    .object({ google: z.object({ thought_signature: z.string().nullish() }).nullish() })
    .nullish(),
});
export type ToolCallDelta = z.infer<typeof ToolCallDeltaSchema>;

const UsageSchema = z
  .looseObject({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    total_tokens: z.number().nullish(),
    prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
    completion_tokens_details: z
      .looseObject({
        reasoning_tokens: z.number().nullish(),
        accepted_prediction_tokens: z.number().nullish(),
        rejected_prediction_tokens: z.number().nullish(),
      })
      .nullish(),
  })
  .nullish();
export type ChatUsage = z.infer<typeof UsageSchema>;

/** A message's content: a string, or typed parts (`text`, `thinking`) some servers send instead. */
const ContentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).nullish();
export type ChatContent = z.infer<typeof ContentSchema>;

const DeltaSchema = z.object({
  role: z.enum(["assistant", ""]).nullish(),
  content: ContentSchema,
  refusal: z
    .unknown()
    .nullish()
    .transform((value) => (typeof value === "string" ? value : undefined)),
  // Most servers name reasoning `reasoning_content`; some serving gpt-oss name it `reasoning`.
  reasoning_content: z.string().nullish(),
  reasoning: z.string().nullish(),
  tool_calls: z.array(ToolCallDeltaSchema).nullish(),
});

const AnswerChunkSchema = z.looseObject({
  id: z.string().nullish(),
  created: z.number().nullish(),
  model: z.string().nullish(),
  choices: z.array(z.object({ delta: DeltaSchema.nullish(), finish_reason: z.string().nullish() })),
  usage: UsageSchema,
});

/** The error body OpenAI-compatible servers send, in a chunk or as a failed response. */
export const ChatErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string().nullish(),
    param: z.unknown().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
  }),
});

export const ChatChunkSchema = z.union([AnswerChunkSchema, ChatErrorSchema]);
export type ChatChunk = z.infer<typeof ChatChunkSchema>;
export type AnswerChunk = z.infer<typeof AnswerChunkSchema>;

/** One chunk's data parsed and checked, with the JSON as sent (`rawValue`), or the SDK's error for it. */
export type ParsedChunk =
  | { success: true; value: ChatChunk; rawValue: unknown }
  | { success: false; error: JSONParseError | TypeValidationError; rawValue: unknown };

/** Parses a chunk's data (refusing `__proto__` keys, as the SDK does) and checks it against `ChatChunkSchema`. */
export function parsedChunk(text: string): ParsedChunk {
  let value: unknown;
  try {
    value = secureJsonParse(text);
  } catch (cause) {
    return { success: false, error: new JSONParseError({ text, cause }), rawValue: undefined };
  }
  const checked = ChatChunkSchema.safeParse(value);
  return checked.success
    ? { success: true, value: checked.data, rawValue: value }
    : { success: false, error: TypeValidationError.wrap({ value, cause: checked.error }), rawValue: value };
}

/** The text and reasoning a message's content holds, in order (`thinking` parts are reasoning). */
export function contentPieces(content: ChatContent): Array<{ reasoning: boolean; text: string }> {
  if (content == null) return [];
  if (typeof content === "string") return content === "" ? [] : [{ reasoning: false, text: content }];
  const pieces: Array<{ reasoning: boolean; text: string }> = [];
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string" && part.text !== "")
      pieces.push({ reasoning: false, text: part.text });
    else if (part.type === "thinking" && Array.isArray(part.thinking)) {
      const text = part.thinking.map(thinkingText).join("");
      if (text !== "") pieces.push({ reasoning: true, text });
    }
  }
  return pieces;
}

const thinkingText = (chunk: unknown): string =>
  typeof chunk === "object" &&
  chunk !== null &&
  "type" in chunk &&
  chunk.type === "text" &&
  "text" in chunk &&
  typeof chunk.text === "string"
    ? chunk.text
    : "";

/** The AI SDK's usage from a Chat Completions `usage` (cached prompt tokens and reasoning split out). */
export function usageOf(usage: ChatUsage): LanguageModelV3Usage {
  if (usage == null)
    return {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    };
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  return {
    inputTokens: { total: prompt, noCache: prompt - cached, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: completion, text: Math.max(0, completion - reasoning), reasoning },
    raw: usage as JSONObject, // SAFETY: `usage` was parsed from the chunk's JSON text, so it holds JSON values only.
  };
}

/** The AI SDK's finish reason for a Chat Completions `finish_reason`; a refusal that stopped is content-filter. */
export function unifiedFinishReason(
  raw: string,
  refused: boolean,
): "stop" | "length" | "content-filter" | "tool-calls" | "other" {
  switch (raw) {
    case "stop":
      return refused ? "content-filter" : "stop";
    case "length":
      return "length";
    case "content_filter":
      return "content-filter";
    case "function_call":
    case "tool_calls":
      return "tool-calls";
    default:
      return "other";
  }
}
