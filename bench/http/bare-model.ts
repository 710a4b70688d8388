/**
 * `bare:<model>`: a chat-completions model written by hand for the bench (text only, no AI SDK), the same
 * fetch and JSON the baseline makes; streamed, one stream read straight into the parts it gives (no chain
 * of piped streams). A Baton app on it against the same app on `openai-compatible:` shows what the AI SDK's
 * client costs a turn, apart from the rest of Baton.
 */
import type {
  LanguageModelV3,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { createParser } from "eventsource-parser";
import type { ModelProvider } from "../../src/models/model-provider.js";
import { answerOf, deltaOf } from "./baseline.js";

const textOf = (message: LanguageModelV3Message): string =>
  typeof message.content === "string"
    ? message.content
    : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");

const USAGE: LanguageModelV3Usage = {
  inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 7, text: 7, reasoning: undefined },
};

/** The stream parts of a streamed chat completion, parsed as its bytes arrive. */
function streamParts(body: ReadableStream<Uint8Array>): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream<LanguageModelV3StreamPart>({
    async start(controller) {
      controller.enqueue({ type: "stream-start", warnings: [] });
      controller.enqueue({ type: "text-start", id: "0" });
      const parser = createParser({
        onEvent({ data }) {
          if (data === "[DONE]") return;
          const delta = deltaOf(JSON.parse(data));
          if (delta !== "") controller.enqueue({ type: "text-delta", id: "0", delta });
        },
      });
      const decoder = new TextDecoder();
      for await (const bytes of body) parser.feed(decoder.decode(bytes, { stream: true }));
      controller.enqueue({ type: "text-end", id: "0" });
      controller.enqueue({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE });
      controller.close();
    },
  });
}

function bareModel(modelId: string, baseUrl: string): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "bare",
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const messages = options.prompt.map((m) => ({ role: m.role, content: textOf(m) }));
      const response = await fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: modelId, messages }),
      });
      return {
        content: [{ type: "text", text: answerOf(await response.json()) }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: USAGE,
        warnings: [],
        response: { modelId },
      };
    },
    async doStream(options) {
      const messages = options.prompt.map((m) => ({ role: m.role, content: textOf(m) }));
      const response = await fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: modelId, messages, stream: true }),
      });
      if (!response.body) throw new Error(`The fake model answered ${response.status} without a body.`);
      return { stream: streamParts(response.body) };
    },
  };
}

/** The `bare` provider, at the fake model's `OPENAI_COMPATIBLE_BASE_URL`. */
export const bareModels = (): ModelProvider => ({
  name: "bare",
  model: (modelId, env) => bareModel(modelId, String(env.OPENAI_COMPATIBLE_BASE_URL)),
});
