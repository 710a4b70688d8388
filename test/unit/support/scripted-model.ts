import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { APICallError } from "@ai-sdk/provider";

/** One scripted model reply. */
export type Reply =
  | { text: string }
  | { calls: { name: string; args: Record<string, unknown>; id?: string }[]; text?: string }
  | { fail: number; headers?: Record<string, string>; message?: string }
  | { throws: Error }
  | { finish: "content-filter" | "stop" };

type Script = readonly Reply[] | ((callIndex: number, options: LanguageModelV3CallOptions) => Reply);

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

export interface ScriptedModel extends LanguageModelV3 {
  /** Every call's options, in order: the prompt and tools each request carried. */
  readonly calls: LanguageModelV3CallOptions[];
}

/**
 * A LanguageModelV3 that answers from a script, one reply per call (the last repeats), for both
 * doGenerate and doStream. `{ fail: 503 }` throws the AI SDK's APICallError with that status.
 */
export function scriptedModel(script: Script, modelId = "scripted"): ScriptedModel {
  const calls: LanguageModelV3CallOptions[] = [];
  const next = (options: LanguageModelV3CallOptions): Reply => {
    calls.push(options);
    const index = calls.length - 1;
    if (typeof script === "function") return script(index, options);
    const reply = script[Math.min(index, script.length - 1)];
    if (!reply) throw new Error("empty script");
    return reply;
  };
  const contentOf = (reply: Reply): LanguageModelV3Content[] => {
    if ("fail" in reply) {
      throw new APICallError({
        message: reply.message ?? `HTTP ${reply.fail}`,
        url: "http://127.0.0.1/scripted",
        requestBodyValues: {},
        statusCode: reply.fail,
        responseHeaders: reply.headers ?? {},
        isRetryable: reply.fail === 408 || reply.fail === 429 || reply.fail >= 500,
      });
    }
    if ("throws" in reply) throw reply.throws;
    if ("finish" in reply) return [];
    const content: LanguageModelV3Content[] = [];
    if ("text" in reply && reply.text !== undefined) content.push({ type: "text", text: reply.text });
    if ("calls" in reply) {
      for (const [i, c] of reply.calls.entries()) {
        content.push({
          type: "tool-call",
          toolCallId: c.id ?? `call_${calls.length}_${i}`,
          toolName: c.name,
          input: JSON.stringify(c.args),
        });
      }
    }
    return content;
  };
  const finishOf = (reply: Reply) =>
    "finish" in reply
      ? { unified: reply.finish, raw: reply.finish }
      : "calls" in reply
        ? { unified: "tool-calls" as const, raw: "tool_calls" }
        : { unified: "stop" as const, raw: "stop" };

  return {
    specificationVersion: "v3",
    provider: "scripted",
    modelId,
    supportedUrls: {},
    calls,
    async doGenerate(options) {
      const reply = next(options);
      return { content: contentOf(reply), finishReason: finishOf(reply), usage, warnings: [] };
    },
    async doStream(options) {
      const reply = next(options);
      const content = contentOf(reply);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const [i, c] of content.entries()) {
        if (c.type === "text") {
          const half = Math.ceil(c.text.length / 2);
          parts.push({ type: "text-start", id: `t${i}` });
          for (const delta of [c.text.slice(0, half), c.text.slice(half)]) {
            if (delta) parts.push({ type: "text-delta", id: `t${i}`, delta });
          }
          parts.push({ type: "text-end", id: `t${i}` });
        } else if (c.type === "tool-call") parts.push(c);
      }
      parts.push({ type: "finish", finishReason: finishOf(reply), usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const p of parts) controller.enqueue(p);
            controller.close();
          },
        }),
      };
    },
  };
}

/** The text of every message of a prompt, flattened: what a test asserts a model was (or was not) shown. */
export function promptText(options: LanguageModelV3CallOptions): string {
  return options.prompt
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : m.content.map((p) => ("text" in p ? p.text : JSON.stringify(p))).join(" "),
    )
    .join("\n");
}
