/**
 * A zero-latency AI SDK model for the in-process bench: it answers at once, and keeps nothing between
 * calls (ai/test's MockLanguageModelV3 records every call's prompt, which would grow the heap it measures).
 */
import type {
  LanguageModelV3,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
} from "@ai-sdk/provider";
import { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "../../src/transfer/constants.js";

const usage = {
  inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 7, text: 7, reasoning: undefined },
};

function model(modelId: string, content: () => LanguageModelV3Content[]): LanguageModelV3 {
  const generate = async (): Promise<LanguageModelV3GenerateResult> => ({
    content: content(),
    finishReason: {
      unified: content().some((c) => c.type === "tool-call") ? "tool-calls" : "stop",
      raw: "stop",
    },
    usage,
    warnings: [],
  });
  return {
    specificationVersion: "v3",
    provider: "bench",
    modelId,
    supportedUrls: {},
    doGenerate: generate,
    doStream: () => Promise.reject(new Error("the in-process bench does not stream")),
  };
}

let calls = 0;

/** Always asks to transfer to `target` (the root's one decision). */
export const transferringModel = (target: string): LanguageModelV3 =>
  model("bench-root", () => [
    {
      type: "tool-call",
      toolCallId: `call-${++calls}`,
      toolName: TRANSFER_TOOL_NAME,
      input: JSON.stringify({ [AGENT_NAME_PARAM]: target }),
    },
  ]);

/** Always answers the same short text (the specialist, every turn). */
export const answeringModel = (): LanguageModelV3 =>
  model("bench-specialist", () => [{ type: "text", text: "Sure: here is a short answer." }]);
