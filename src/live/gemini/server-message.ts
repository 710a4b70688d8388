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

/** Bytes by their tag, not `instanceof`: a frame's buffer may come from another realm (workerd's I/O). */
const isBytes = (data: unknown): data is ArrayBuffer | ArrayBufferView =>
  ArrayBuffer.isView(data) || Object.prototype.toString.call(data) === "[object ArrayBuffer]";

/** A frame's text: Gemini sends text frames or binary frames of UTF-8 JSON (a `Blob` where the runtime keeps them so). */
export function frameText(data: unknown): string | Promise<string> | undefined {
  if (typeof data === "string") return data;
  if (isBytes(data)) return new TextDecoder().decode(data);
  if (data instanceof Blob) return data.text();
  return undefined;
}

/** A frame's message, or why it is not one. */
export function parseServerMessage(text: string | undefined): ServerMessage | { invalid: string } {
  if (text === undefined) return { invalid: "a frame that is neither text nor bytes" };
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
