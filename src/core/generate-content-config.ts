import * as z from "zod";

/**
 * ADK's `generate_content_config` (genai `GenerateContentConfig`), the fields Baton sends to a model, in
 * camelCase. Unknown fields are refused: ADK sets tools, system instruction and thinking elsewhere.
 */
export const GenerateContentConfigSchema = z.strictObject({
  temperature: z.number().min(0).optional(),
  topP: z.number().min(0).max(1).optional(),
  topK: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  stopSequences: z.array(z.string()).optional(),
  seed: z.number().int().optional(),
  presencePenalty: z.number().optional(),
  frequencyPenalty: z.number().optional(),
  /** `application/json` asks for JSON output (JSON mode); `text/plain` is the default. */
  responseMimeType: z.string().optional(),
  /** The JSON Schema of the output; genai's upper-case `type` names (`OBJECT`, `STRING`…) are accepted. */
  responseSchema: z.record(z.string(), z.unknown()).optional(),
});
export type GenerateContentConfig = z.infer<typeof GenerateContentConfigSchema>;

/** The response schema with genai's upper-case type names (`OBJECT`) in JSON Schema's lower case. */
export function toJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const walk = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (typeof value === "string" && key === "type") return value.toLowerCase();
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
  };
  // SAFETY: walking an object returns an object of the same keys.
  return walk(schema) as Record<string, unknown>;
}

/** Whether the config asks for JSON output. */
export const wantsJson = (config: GenerateContentConfig): boolean =>
  config.responseMimeType === "application/json" || config.responseSchema !== undefined;
