import * as z from "zod";
import { normalizeWireKeys } from "./wire-case.js";

/** A zod object read in ADK's wire shape: camelCase or snake_case keys, `null` treated as absent. */
export const wireObject = <T extends z.ZodRawShape>(shape: T) =>
  z.preprocess(normalizeWireKeys, z.object(shape));

/** A JSON object with string keys: function arguments and responses, state, metadata. */
export const JsonObject = z.record(z.string(), z.unknown());

export const FunctionCallSchema = wireObject({
  id: z.string().optional(),
  name: z.string().min(1),
  args: JsonObject.optional(),
});
export type FunctionCall = z.infer<typeof FunctionCallSchema>;

export const FunctionResponseSchema = wireObject({
  id: z.string().optional(),
  name: z.string().min(1),
  response: JsonObject,
});
export type FunctionResponse = z.infer<typeof FunctionResponseSchema>;

export const BlobSchema = wireObject({
  mimeType: z.string(),
  data: z.string(),
  displayName: z.string().optional(),
});
export const FileDataSchema = wireObject({
  fileUri: z.string(),
  mimeType: z.string().optional(),
  displayName: z.string().optional(),
});

/** genai `Part`: exactly the fields ADK reads; other keys are dropped on input. */
export const PartSchema = wireObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  functionCall: FunctionCallSchema.optional(),
  functionResponse: FunctionResponseSchema.optional(),
  inlineData: BlobSchema.optional(),
  fileData: FileDataSchema.optional(),
  executableCode: wireObject({ language: z.string().optional(), code: z.string() }).optional(),
  codeExecutionResult: wireObject({
    outcome: z.string().optional(),
    output: z.string().optional(),
  }).optional(),
});
export type Part = z.infer<typeof PartSchema>;

export const ContentSchema = wireObject({
  role: z.string().optional(),
  parts: z.array(PartSchema).optional(),
});
export type Content = z.infer<typeof ContentSchema>;

/** The text of the non-thought text parts, concatenated with no separator (ADK's `output_key` rule). */
export function textOf(content: Content | undefined): string {
  return (content?.parts ?? [])
    .filter((p) => p.text !== undefined && !p.thought)
    .map((p) => p.text)
    .join("");
}

// Index loops, not `flatMap`: these run several times per event, often on frozen stored parts.
export function functionCallsOf(content: Content | undefined): FunctionCall[] {
  const calls: FunctionCall[] = [];
  const parts = content?.parts ?? [];
  for (let i = 0; i < parts.length; i++) {
    const call = parts[i]?.functionCall;
    if (call) calls.push(call);
  }
  return calls;
}

export function functionResponsesOf(content: Content | undefined): FunctionResponse[] {
  const responses: FunctionResponse[] = [];
  const parts = content?.parts ?? [];
  for (let i = 0; i < parts.length; i++) {
    const response = parts[i]?.functionResponse;
    if (response) responses.push(response);
  }
  return responses;
}

export const userText = (text: string): Content => ({ role: "user", parts: [{ text }] });
