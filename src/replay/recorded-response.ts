import * as z from "zod";
import { ContentSchema } from "../core/content.js";
import type { LlmResponse } from "../core/llm.js";
import { differences } from "./differences.js";
import { asJson, genaiToCamel } from "./genai-keys.js";

const JsonObject = z.record(z.string(), z.unknown());

/** The `LlmResponse` fields Baton has; a recorded field outside this list fails the case (strict). */
const ResponseSchema = z
  .object({
    content: z.unknown().optional(),
    partial: z.boolean().optional(),
    finishReason: z.string().optional(),
    errorCode: z.string().optional(),
    errorMessage: z.string().optional(),
    usageMetadata: JsonObject.optional(),
    modelVersion: z.string().optional(),
    avgLogprobs: z.number().optional(),
    groundingMetadata: JsonObject.optional(),
    citationMetadata: JsonObject.optional(),
    customMetadata: JsonObject.optional(),
  })
  .strict();

/**
 * A recorded genai `LlmResponse` (snake_case) as Baton's `LlmResponse`: model field names to camelCase
 * (nested ones too: `usage_metadata.candidates_tokens_details[].token_count`), user data untouched. Throws
 * when the recording holds something Baton's types cannot carry, rather than dropping it silently.
 */
export function toLlmResponse(recorded: Record<string, unknown>): LlmResponse {
  const camel = genaiToCamel(recorded);
  const parsed = ResponseSchema.safeParse(camel);
  if (!parsed.success) {
    throw new Error(
      `Recorded llm_response has fields Baton's LlmResponse lacks:\n${z.prettifyError(parsed.error)}`,
    );
  }
  const { content, ...rest } = parsed.data;
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  );
  if (content !== undefined) {
    const baton = ContentSchema.parse(content);
    const lost = differences(content, asJson(baton), "llm_response.content");
    if (lost.length > 0)
      throw new Error(`Baton's Content cannot carry the recorded content:\n${lost.join("\n")}`);
    out.content = baton;
  }
  // SAFETY: `out` is the strict schema's output (each field type-checked) with undefined fields removed.
  return out as LlmResponse;
}
