import * as z from "zod";
import { ContentSchema, FunctionCallSchema, JsonObject } from "../../core/content.js";

const TranscriptionSchema = z.object({ text: z.string().optional(), finished: z.boolean().optional() });

/** `BidiGenerateContentServerMessage`: the fields Baton reads (each message carries one of them). */
export const ServerMessageSchema = z.object({
  setupComplete: z.looseObject({}).optional(),
  serverContent: z
    .object({
      modelTurn: ContentSchema.optional(),
      turnComplete: z.boolean().optional(),
      interrupted: z.boolean().optional(),
      generationComplete: z.boolean().optional(),
      inputTranscription: TranscriptionSchema.optional(),
      outputTranscription: TranscriptionSchema.optional(),
      groundingMetadata: JsonObject.optional(),
    })
    .optional(),
  toolCall: z.object({ functionCalls: z.array(FunctionCallSchema).optional() }).optional(),
  toolCallCancellation: z.object({ ids: z.array(z.string()).optional() }).optional(),
  sessionResumptionUpdate: z
    .object({ newHandle: z.string().optional(), resumable: z.boolean().optional() })
    .optional(),
  goAway: z.object({ timeLeft: z.string().optional() }).optional(),
  usageMetadata: JsonObject.optional(),
});
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

/** A frame's JSON: Gemini sends text frames or binary frames of UTF-8 JSON. */
export function parseServerMessage(data: unknown): ServerMessage | { invalid: string } {
  let text: string;
  if (typeof data === "string") text = data;
  else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) text = new TextDecoder().decode(data);
  else return { invalid: "a frame that is neither text nor bytes" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      invalid: `a frame that is not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const parsed = ServerMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : { invalid: `a message of unknown shape (${parsed.error.message})` };
}
