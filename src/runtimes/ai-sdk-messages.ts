import type { AssistantContent, JSONValue, ModelMessage, UserContent } from "ai";
import type { Content, Part } from "../core/content.js";
import { historyItems } from "./history-messages.js";

function userParts(parts: readonly Part[]): Exclude<UserContent, string> {
  return parts.flatMap((p): Exclude<UserContent, string> => {
    if (p.text !== undefined) return [{ type: "text", text: p.text }];
    if (p.inlineData) return [{ type: "file", data: p.inlineData.data, mediaType: p.inlineData.mimeType }];
    return [];
  });
}

function assistantParts(parts: readonly Part[]): Exclude<AssistantContent, string> {
  return parts.flatMap((p): Exclude<AssistantContent, string> => {
    const call = p.functionCall;
    if (call?.id)
      return [{ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.args ?? {} }];
    return p.text ? [{ type: "text", text: p.text }] : [];
  });
}

/** ADK history → AI SDK messages: `model` content is the assistant's, function responses are tool messages. */
export function toModelMessages(history: readonly Content[]): ModelMessage[] {
  return historyItems(history).flatMap((item): ModelMessage[] => {
    if (item.kind === "assistant") {
      const content = assistantParts(item.parts);
      return content.length > 0 ? [{ role: "assistant", content }] : [];
    }
    if (item.kind === "user") {
      const content = userParts(item.parts);
      return content.length > 0 ? [{ role: "user", content }] : [];
    }
    const content = item.results.map(({ call, response }) => ({
      type: "tool-result" as const,
      toolCallId: call.id,
      toolName: call.name,
      // SAFETY: stored function responses are JSON objects (they came through zod from the wire or a tool).
      output: { type: "json" as const, value: response as JSONValue },
    }));
    return [{ role: "tool", content }];
  });
}
