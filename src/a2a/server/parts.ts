import type { Part as A2aPart } from "@a2a-js/sdk";
import * as z from "zod";
import { FunctionCallSchema, FunctionResponseSchema, type Part } from "../../core/content.js";
import { base64ToBytes, bytesToBase64 } from "./base64.js";

/** ADK's DataPart metadata key for function calls and responses (ADK-SEMANTICS §5.2, §6.3). */
export const ADK_TYPE = "adk_type";

const JsonObject = z.record(z.string(), z.unknown());

/** The SDK's type of raw bytes: Node's `Buffer`, which it only ever reads as the `Uint8Array` it extends. */
type RawBytes = Extract<NonNullable<A2aPart["content"]>, { $case: "raw" }>["value"];

const emptyPart = (): Omit<A2aPart, "content"> => ({ metadata: undefined, filename: "", mediaType: "" });

/** One genai part as an A2A part: text, data (function calls and responses, tagged with `adk_type`), file. */
export function toA2aPart(part: Part): A2aPart | null {
  if (part.text !== undefined)
    return {
      ...emptyPart(),
      content: { $case: "text", value: part.text },
      metadata: part.thought ? { adk_thought: true } : undefined,
    };
  if (part.functionCall)
    return {
      ...emptyPart(),
      content: { $case: "data", value: part.functionCall },
      metadata: { [ADK_TYPE]: "function_call" },
    };
  if (part.functionResponse)
    return {
      ...emptyPart(),
      content: { $case: "data", value: part.functionResponse },
      metadata: { [ADK_TYPE]: "function_response" },
    };
  if (part.inlineData)
    return {
      ...emptyPart(),
      // SAFETY: the SDK serializes raw bytes with `Buffer.from(value)`, which takes any Uint8Array.
      content: { $case: "raw", value: base64ToBytes(part.inlineData.data) as RawBytes },
      mediaType: part.inlineData.mimeType,
    };
  if (part.fileData)
    return {
      ...emptyPart(),
      content: { $case: "url", value: part.fileData.fileUri },
      mediaType: part.fileData.mimeType ?? "",
    };
  return null;
}

/** An A2A part from a client as a genai part; data parts tagged as function responses become ones. */
export function fromA2aPart(part: A2aPart): Part | null {
  const content = part.content;
  if (!content) return null;
  switch (content.$case) {
    case "text":
      return { text: content.value };
    case "raw":
      return {
        inlineData: {
          mimeType: part.mediaType || "application/octet-stream",
          data: bytesToBase64(content.value),
        },
      };
    case "url":
      return {
        fileData: { fileUri: content.value, ...(part.mediaType ? { mimeType: part.mediaType } : {}) },
      };
    case "data":
      return fromDataPart(content.value, part.metadata?.[ADK_TYPE]);
  }
}

function fromDataPart(value: unknown, adkType: unknown): Part {
  if (adkType === "function_response") {
    const response = FunctionResponseSchema.safeParse(value);
    if (response.success) return { functionResponse: response.data };
  }
  if (adkType === "function_call") {
    const call = FunctionCallSchema.safeParse(value);
    if (call.success) return { functionCall: call.data };
  }
  const data = JsonObject.safeParse(value);
  return { text: JSON.stringify(data.success ? data.data : value) };
}
