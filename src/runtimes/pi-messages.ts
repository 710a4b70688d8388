import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { Api, AssistantMessage, Model, TextContent, ToolCall } from "@mariozechner/pi-ai";
import type { Content, Part } from "../core/content.js";
import { historyItems } from "./history-messages.js";

const NO_USAGE: AssistantMessage["usage"] = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

const texts = (parts: readonly Part[]): TextContent[] =>
  parts.flatMap((p) => (p.text ? [{ type: "text" as const, text: p.text }] : []));

/** ADK history → pi-agent-core messages (user, assistant, toolResult), as if `model` had produced them. */
export function toPiMessages(history: readonly Content[], model: Model<Api>): AgentMessage[] {
  return historyItems(history).flatMap((item): AgentMessage[] => {
    if (item.kind === "user") {
      const content = texts(item.parts);
      return content.length > 0 ? [{ role: "user", content, timestamp: 0 }] : [];
    }
    if (item.kind === "assistant") {
      const content = item.parts.flatMap((p): (TextContent | ToolCall)[] => {
        const call = p.functionCall;
        if (call?.id) return [{ type: "toolCall", id: call.id, name: call.name, arguments: call.args ?? {} }];
        return texts([p]);
      });
      const toolUse = content.some((c) => c.type === "toolCall");
      const message: AssistantMessage = {
        role: "assistant",
        content,
        api: model.api,
        provider: model.provider,
        model: model.id,
        usage: NO_USAGE,
        stopReason: toolUse ? "toolUse" : "stop",
        timestamp: 0,
      };
      return content.length > 0 ? [message] : [];
    }
    return item.results.map(({ call, response }) => ({
      role: "toolResult" as const,
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: "text" as const, text: JSON.stringify(response) }],
      details: response,
      isError: "error" in response,
      timestamp: 0,
    }));
  });
}
