import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3ToolCall,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { type DemoReply, demoReply } from "./script.js";

const wordCount = (text: string): number => text.split(/\s+/).filter((w) => w !== "").length;

// Rough counts, so usage metadata looks like a real model's.
function usageOf(options: LanguageModelV3CallOptions, output: string): LanguageModelV3Usage {
  const input = wordCount(JSON.stringify(options.prompt));
  const produced = wordCount(output);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: produced, text: produced, reasoning: undefined },
  };
}

/** The text split into about three chunks at word boundaries (at least one chunk). */
export function chunksOf(text: string): string[] {
  const words = text.split(/(?<=\s)/);
  const size = Math.max(1, Math.ceil(words.length / 3));
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += size) chunks.push(words.slice(i, i + size).join(""));
  return chunks;
}

// An empty id, as Gemini gives: the agent mints ADK's own `adk-` id for the call.
const toolCallOf = (reply: Extract<DemoReply, { kind: "tool-call" }>): LanguageModelV3ToolCall => ({
  type: "tool-call",
  toolCallId: "",
  toolName: reply.toolName,
  input: JSON.stringify(reply.input),
});

const contentOf = (reply: DemoReply): LanguageModelV3Content =>
  reply.kind === "text" ? { type: "text", text: reply.text } : toolCallOf(reply);

function finishOf(reply: DemoReply): LanguageModelV3GenerateResult["finishReason"] {
  return reply.kind === "text"
    ? { unified: "stop", raw: "stop" }
    : { unified: "tool-calls", raw: "tool_calls" };
}

function streamParts(
  reply: DemoReply,
  usage: LanguageModelV3Usage,
  modelId: string,
): LanguageModelV3StreamPart[] {
  const body: LanguageModelV3StreamPart[] =
    reply.kind === "text"
      ? [
          { type: "text-start", id: "t0" },
          ...chunksOf(reply.text).map(
            (delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t0", delta }),
          ),
          { type: "text-end", id: "t0" },
        ]
      : [toolCallOf(reply)];
  return [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", modelId },
    ...body,
    { type: "finish", usage, finishReason: finishOf(reply) },
  ];
}

/**
 * Baton's scripted model for `demo:<anything>`: deterministic, offline, no key. What it says is decided by
 * `demoReply` from the request alone (transfer by keywords, tool calls, tool-result summaries, an in-role
 * answer). It streams text in about three chunks.
 *
 * @example
 * new LlmAgent({ name: "billing", description: "Invoices and refunds", model: "demo:billing" });
 */
export function createDemoModel(id: string): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "demo",
    modelId: id,
    supportedUrls: {},
    async doGenerate(options) {
      const reply = demoReply(options);
      const content = contentOf(reply);
      return {
        content: [content],
        finishReason: finishOf(reply),
        usage: usageOf(options, reply.kind === "text" ? reply.text : JSON.stringify(reply.input)),
        response: { modelId: id },
        warnings: [],
      };
    },
    async doStream(options): Promise<LanguageModelV3StreamResult> {
      const reply = demoReply(options);
      const usage = usageOf(options, reply.kind === "text" ? reply.text : JSON.stringify(reply.input));
      const parts = streamParts(reply, usage, id);
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
