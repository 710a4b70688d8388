import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { APICallError } from "@ai-sdk/provider";
import { convertArrayToReadableStream } from "ai/test";
import type { LlmRequest } from "../../../src/core/llm.js";

export const usage = (input = 3, output = 2): LanguageModelV3Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

export const finish = (
  unified: LanguageModelV3FinishReason["unified"],
  raw?: string,
): LanguageModelV3FinishReason => ({
  unified,
  raw,
});

export const generated = (
  content: LanguageModelV3Content[],
  reason: LanguageModelV3FinishReason = finish("stop", "stop"),
): LanguageModelV3GenerateResult => ({ content, finishReason: reason, usage: usage(), warnings: [] });

export const streamed = (parts: LanguageModelV3StreamPart[]): LanguageModelV3StreamResult => ({
  stream: convertArrayToReadableStream(parts),
});

/** A stream that yields `parts`, then fails with `error` while being read. */
export function failingStream(
  parts: LanguageModelV3StreamPart[],
  error: unknown,
): LanguageModelV3StreamResult {
  const queue = [...parts];
  // Pull-based, so the parts are read before the error (erroring in start() would discard them).
  const stream = new ReadableStream<LanguageModelV3StreamPart>({
    pull(controller) {
      const part = queue.shift();
      if (part) controller.enqueue(part);
      else controller.error(error);
    },
  });
  return { stream };
}

export const textStream = (...deltas: string[]): LanguageModelV3StreamPart[] => [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "1" },
  ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "1", delta })),
  { type: "text-end", id: "1" },
  { type: "finish", usage: usage(), finishReason: finish("stop", "stop") },
];

export const httpError = (
  statusCode: number,
  headers?: Record<string, string>,
  message = `status ${statusCode}`,
) =>
  new APICallError({
    message,
    url: "https://api.example/v1/chat",
    requestBodyValues: {},
    statusCode,
    ...(headers ? { responseHeaders: headers } : {}),
  });

/** Each call takes the next step: a value is returned, an Error is thrown. Counts the calls. */
export function steps<T>(...script: Array<T | Error>) {
  const calls = { count: 0 };
  const next = async (): Promise<T> => {
    const step = script[calls.count++];
    if (step === undefined) throw new Error("script exhausted");
    if (step instanceof Error) throw step;
    return step;
  };
  return { next, calls };
}

export const generateSteps = (...script: Array<LanguageModelV3GenerateResult | Error>) => steps(...script);
export const streamSteps = (...script: Array<LanguageModelV3StreamResult | Error>) => steps(...script);

/** An injected sleep that records the delays instead of waiting. */
export function recordingSleep() {
  const slept: number[] = [];
  return { slept, sleep: async (ms: number) => void slept.push(ms) };
}

export const request = (text = "hi", extra: Partial<LlmRequest> = {}): LlmRequest => ({
  config: {},
  systemInstruction: "",
  contents: [{ role: "user", parts: [{ text }] }],
  tools: [],
  ...extra,
});

export async function collect<T>(generator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of generator) out.push(item);
  return out;
}

/** The error an async generator throws, or a failure if it throws none. */
export async function rejection(generator: AsyncIterable<unknown>): Promise<unknown> {
  try {
    for await (const _ of generator) {
      // drain
    }
  } catch (error) {
    return error;
  }
  throw new Error("expected the generator to throw");
}
