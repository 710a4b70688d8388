import type { Content, Part } from "../core/content.js";
import type { Event } from "../core/event.js";

const PART_KEYS = new Set(["text", "functionCall", "functionResponse", "inlineData", "fileData", "thought"]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A genai `Content`: an object with a `parts` list. */
export const isContent = (value: unknown): value is Content => isRecord(value) && Array.isArray(value.parts);

/** A Baton event (what nodes and agents yield), told apart from an output value by its fields. */
export const isEvent = (value: unknown): value is Event =>
  isRecord(value) &&
  typeof value.id === "string" &&
  typeof value.invocationId === "string" &&
  typeof value.author === "string" &&
  typeof value.timestamp === "number" &&
  isRecord(value.actions);

const isPart = (value: unknown): value is Part =>
  isRecord(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => PART_KEYS.has(k));

const asText = (value: unknown): string => {
  if (typeof value === "string") return value;
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json;
};

/**
 * A node output as the model-role content of its event, as ADK's `toContent` makes it: text as a text
 * part, a list of texts or parts as those parts, a part as itself, anything else as its JSON text.
 */
export function outputContent(output: unknown): Content | undefined {
  if (output === undefined || output === null) return undefined;
  if (isContent(output)) return output;
  if (isPart(output)) return { role: "model", parts: [output] };
  if (Array.isArray(output) && output.length > 0 && output.every((o) => typeof o === "string" || isPart(o)))
    return { role: "model", parts: output.map((o) => (typeof o === "string" ? { text: o } : o)) };
  return { role: "model", parts: [{ text: asText(output) }] };
}
