import { type Message, Role } from "@a2a-js/sdk";
import type { Content } from "../../core/content.js";
import { toA2aPart } from "./parts.js";

export interface MessageIds {
  messageId: string;
  contextId: string;
  taskId: string;
}

/** An agent message with these parts. */
export function agentMessage(
  ids: MessageIds,
  parts: Message["parts"],
  metadata?: Record<string, unknown>,
): Message {
  return { ...ids, role: Role.ROLE_AGENT, parts, metadata, extensions: [], referenceTaskIds: [] };
}

/** A one-text-part agent message. */
export const agentText = (ids: MessageIds, text: string, metadata?: Record<string, unknown>): Message =>
  agentMessage(
    ids,
    [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "" }],
    metadata,
  );

/** The A2A parts of a genai content (parts with no A2A form are left out). */
export const a2aPartsOf = (content: Content | undefined): Message["parts"] =>
  (content?.parts ?? []).flatMap((part) => {
    const converted = toA2aPart(part);
    return converted ? [converted] : [];
  });
