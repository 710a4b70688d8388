import { type Part, PartSchema } from "../../core/content.js";
import { lookupTable } from "../../core/lookup-table.js";
import type { A2aPart } from "../protocol/a2a-objects.js";

/** ADK's part metadata keys on the A2A wire (ADK `a2a/converters/part_converter.py`). */
export const ADK_TYPE_KEY = "adk_type";
export const ADK_THOUGHT_KEY = "adk_thought";

const DATA_KINDS = lookupTable({
  function_call: "functionCall",
  function_response: "functionResponse",
  code_execution_result: "codeExecutionResult",
  executable_code: "executableCode",
} as const);
type DataKind = keyof typeof DATA_KINDS;
const isDataKind = (v: unknown): v is DataKind => typeof v === "string" && v in DATA_KINDS;

/** An A2A part as an ADK part (ADK-SEMANTICS §5.3); `undefined` for a part with nothing ADK can hold. */
export function toAdkPart(part: A2aPart): Part | undefined {
  const meta = part.metadata ?? {};
  if (part.text !== undefined)
    return meta[ADK_THOUGHT_KEY] === true ? { text: part.text, thought: true } : { text: part.text };
  if (part.raw !== undefined) {
    return {
      inlineData: { mimeType: part.mediaType || "application/octet-stream", data: part.raw, ...named(part) },
    };
  }
  if (part.url !== undefined) {
    return {
      fileData: {
        fileUri: part.url,
        ...(part.mediaType ? { mimeType: part.mediaType } : {}),
        ...named(part),
      },
    };
  }
  if (part.data === undefined) return undefined;
  const kind = meta[ADK_TYPE_KEY];
  if (isDataKind(kind)) {
    const parsed = PartSchema.safeParse({ [DATA_KINDS[kind]]: part.data });
    if (parsed.success) return parsed.data;
  }
  return { text: JSON.stringify(part.data) };
}

const named = (part: A2aPart) => (part.filename ? { displayName: part.filename } : {});

/** An ADK part as an A2A part for an outgoing message; `undefined` for a part A2A cannot carry. */
export function toA2aPart(part: Part, metadata: Record<string, unknown> = {}): A2aPart | undefined {
  const withMeta = (extra: Record<string, unknown>) => {
    const all = { ...extra, ...metadata };
    return Object.keys(all).length === 0 ? {} : { metadata: all };
  };
  if (part.text !== undefined)
    return { text: part.text, ...withMeta(part.thought ? { [ADK_THOUGHT_KEY]: true } : {}) };
  if (part.inlineData) {
    const { data, mimeType, displayName } = part.inlineData;
    return {
      raw: data,
      mediaType: mimeType,
      ...(displayName ? { filename: displayName } : {}),
      ...withMeta({}),
    };
  }
  if (part.fileData) {
    const { fileUri, mimeType, displayName } = part.fileData;
    return {
      url: fileUri,
      ...(mimeType ? { mediaType: mimeType } : {}),
      ...(displayName ? { filename: displayName } : {}),
      ...withMeta({}),
    };
  }
  for (const [kind, field] of Object.entries(DATA_KINDS)) {
    const value = part[field];
    if (value !== undefined) return { data: value, ...withMeta({ [ADK_TYPE_KEY]: kind }) };
  }
  return undefined;
}
