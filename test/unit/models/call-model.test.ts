import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { BatonError } from "../../../src/core/errors.js";
import { type CallModelOptions, callModel } from "../../../src/models/call-model.js";
import {
  collect,
  failingStream,
  finish,
  generated,
  generateSteps,
  httpError,
  recordingSleep,
  rejection,
  request,
  streamed,
  streamSteps,
  textStream,
  usage,
} from "./fakes.js";

const retry = { attempts: 3, initialDelayMs: 100, maxDelayMs: 1_000 };

function setup(streaming: boolean, extra: Partial<CallModelOptions> = {}) {
  const clock = recordingSleep();
  const options: CallModelOptions = { streaming, retry, sleep: clock.sleep, random: () => 0, ...extra };
  return { options, slept: clock.slept };
}

describe("callModel, non-streaming", () => {
  it("yields exactly one response with the text, finish reason, usage and model version", async () => {
    const model = new MockLanguageModelV3({
      modelId: "m-1",
      doGenerate: generated([{ type: "text", text: "Hi!" }]),
    });
    const responses = await collect(callModel(model, request(), setup(false).options));
    expect(responses).toEqual([
      {
        content: { role: "model", parts: [{ text: "Hi!" }] },
        finishReason: "STOP",
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
        modelVersion: "m-1",
      },
    ]);
  });

  it("sends the converted prompt and tools to the model", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: "text", text: "ok" }]) });
    const tools = [{ name: "f", description: "d", parameters: { type: "object" } }];
    await collect(
      callModel(
        model,
        request("hello", { config: {}, systemInstruction: "sys", tools }),
        setup(false).options,
      ),
    );
    const sent = model.doGenerateCalls[0];
    expect(sent?.prompt).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "text", text: "hello" }] },
    ]);
    expect(sent?.tools?.map((t) => t.name)).toEqual(["f"]);
  });

  it("returns tool calls as function calls with the provider's id", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated(
        [{ type: "tool-call", toolCallId: "call_1", toolName: "f", input: '{"x":2}' }],
        finish("tool-calls", "tool_calls"),
      ),
    });
    const [response] = await collect(callModel(model, request(), setup(false).options));
    expect(response?.content?.parts).toEqual([{ functionCall: { id: "call_1", name: "f", args: { x: 2 } } }]);
    expect(response?.finishReason).toBe("STOP");
  });

  it("gives up on 503 after exactly `attempts` calls with MODEL_UNAVAILABLE", async () => {
    const script = generateSteps(httpError(503), httpError(503), httpError(503), generated([]));
    const model = new MockLanguageModelV3({ provider: "p", doGenerate: script.next });
    const { options, slept } = setup(false);
    const error = await rejection(callModel(model, request(), options));
    expect(error).toBeInstanceOf(BatonError);
    expect(error).toMatchObject({ code: "MODEL_UNAVAILABLE", upstreamStatus: 503 });
    expect(script.calls.count).toBe(3);
    expect(slept).toEqual([50, 100]);
  });

  it("waits as long as Retry-After says after a 429, then succeeds", async () => {
    const script = generateSteps(
      httpError(429, { "retry-after": "7" }),
      generated([{ type: "text", text: "late" }]),
    );
    const model = new MockLanguageModelV3({ doGenerate: script.next });
    const { options, slept } = setup(false);
    const [response] = await collect(callModel(model, request(), options));
    expect(response?.content?.parts).toEqual([{ text: "late" }]);
    expect(slept).toEqual([7_000]);
  });

  it("does not retry a 400 and reports MODEL_BAD_REQUEST", async () => {
    const script = generateSteps(httpError(400), generated([]));
    const model = new MockLanguageModelV3({ doGenerate: script.next });
    const { options, slept } = setup(false);
    expect(await rejection(callModel(model, request(), options))).toMatchObject({
      code: "MODEL_BAD_REQUEST",
    });
    expect(script.calls.count).toBe(1);
    expect(slept).toEqual([]);
  });

  it("does not retry a 401 and reports MODEL_AUTH_FAILED", async () => {
    const script = generateSteps(httpError(401), generated([]));
    const model = new MockLanguageModelV3({ doGenerate: script.next });
    expect(await rejection(callModel(model, request(), setup(false).options))).toMatchObject({
      code: "MODEL_AUTH_FAILED",
      upstreamStatus: 401,
    });
    expect(script.calls.count).toBe(1);
  });

  it("retries a network TypeError", async () => {
    const script = generateSteps(new TypeError("fetch failed"), generated([{ type: "text", text: "back" }]));
    const model = new MockLanguageModelV3({ doGenerate: script.next });
    const [response] = await collect(callModel(model, request(), setup(false).options));
    expect(response?.content?.parts).toEqual([{ text: "back" }]);
    expect(script.calls.count).toBe(2);
  });

  it("makes a single attempt when attempts is 1", async () => {
    const script = generateSteps(httpError(503), generated([]));
    const model = new MockLanguageModelV3({ doGenerate: script.next });
    const options = { ...setup(false).options, retry: { ...retry, attempts: 1 } };
    expect(await rejection(callModel(model, request(), options))).toMatchObject({
      code: "MODEL_UNAVAILABLE",
    });
    expect(script.calls.count).toBe(1);
  });

  it("does not retry once the caller aborted", async () => {
    const controller = new AbortController();
    const script = generateSteps(httpError(503), generated([]));
    const model = new MockLanguageModelV3({
      doGenerate: () => {
        controller.abort();
        return script.next();
      },
    });
    const options = setup(false, { signal: controller.signal }).options;
    expect(await rejection(callModel(model, request(), options))).toMatchObject({
      code: "MODEL_UNAVAILABLE",
    });
    expect(script.calls.count).toBe(1);
  });

  it("turns a content-filter finish with no content into a SAFETY error response", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([], finish("content-filter", "content_filter")),
    });
    const [response] = await collect(callModel(model, request(), setup(false).options));
    expect(response).toMatchObject({ errorCode: "SAFETY", finishReason: "SAFETY" });
    expect(response?.errorMessage).toBeTruthy();
    expect(response?.content).toBeUndefined();
  });

  it("flags a STOP with no content as MODEL_RETURNED_NO_CONTENT", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([]) });
    const [response] = await collect(callModel(model, request(), setup(false).options));
    expect(response?.errorCode).toBe("MODEL_RETURNED_NO_CONTENT");
  });
});

describe("callModel, streaming", () => {
  it("yields a partial per text chunk, then one aggregated response", async () => {
    const model = new MockLanguageModelV3({
      modelId: "s-1",
      doStream: streamed(textStream("Hel", "lo", "!")),
    });
    const responses = await collect(callModel(model, request(), setup(true).options));
    expect(responses.map((r) => [r.partial, r.content?.parts?.[0]?.text])).toEqual([
      [true, "Hel"],
      [true, "lo"],
      [true, "!"],
      [undefined, "Hello!"],
    ]);
    expect(responses.at(-1)).toMatchObject({
      finishReason: "STOP",
      modelVersion: "s-1",
      content: { role: "model" },
    });
  });

  it("aggregates reasoning, text and tool calls in stream order", async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: "reasoning-start", id: "r" },
      { type: "reasoning-delta", id: "r", delta: "think" },
      { type: "reasoning-end", id: "r" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Calling." },
      { type: "text-end", id: "t" },
      { type: "tool-input-start", id: "c", toolName: "f" },
      { type: "tool-input-delta", id: "c", delta: '{"a":1}' },
      { type: "tool-input-end", id: "c" },
      { type: "tool-call", toolCallId: "c", toolName: "f", input: '{"a":1}' },
      { type: "finish", usage: usage(), finishReason: finish("tool-calls", "tool_calls") },
    ];
    const model = new MockLanguageModelV3({ doStream: streamed(parts) });
    const responses = await collect(callModel(model, request(), setup(true).options));
    expect(responses.filter((r) => r.partial).map((r) => r.content?.parts)).toEqual([
      [{ text: "think", thought: true }],
      [{ text: "Calling." }],
    ]);
    expect(responses.at(-1)?.content?.parts).toEqual([
      { text: "think", thought: true },
      { text: "Calling." },
      { functionCall: { id: "c", name: "f", args: { a: 1 } } },
    ]);
  });

  it("retries a failure that comes before the first chunk", async () => {
    const script = streamSteps(httpError(503), streamed(textStream("ok")));
    const model = new MockLanguageModelV3({ doStream: script.next });
    const { options, slept } = setup(true);
    const responses = await collect(callModel(model, request(), options));
    expect(responses.at(-1)?.content?.parts).toEqual([{ text: "ok" }]);
    expect(script.calls.count).toBe(2);
    expect(slept).toEqual([50]);
  });

  it("retries an error part that arrives before any chunk", async () => {
    const early = streamed([
      { type: "stream-start", warnings: [] },
      { type: "error", error: httpError(500) },
    ]);
    const script = streamSteps(early, streamed(textStream("fine")));
    const model = new MockLanguageModelV3({ doStream: script.next });
    const responses = await collect(callModel(model, request(), setup(true).options));
    expect(responses.at(-1)?.content?.parts).toEqual([{ text: "fine" }]);
  });

  it("does not retry an error after the first chunk was yielded", async () => {
    const broken = failingStream(textStream("Hel").slice(0, 3), new TypeError("fetch failed: socket closed"));
    const script = streamSteps(broken, streamed(textStream("never")));
    const model = new MockLanguageModelV3({ doStream: script.next });
    const seen: string[] = [];
    const { options, slept } = setup(true);
    const error = await (async () => {
      try {
        for await (const r of callModel(model, request(), options))
          seen.push(r.content?.parts?.[0]?.text ?? "");
      } catch (e) {
        return e;
      }
    })();
    expect(seen).toEqual(["Hel"]);
    expect(error).toMatchObject({ code: "MODEL_UNAVAILABLE" });
    expect(script.calls.count).toBe(1);
    expect(slept).toEqual([]);
  });

  it("turns a content-filter finish with no content into a SAFETY error response", async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "finish", usage: usage(), finishReason: finish("content-filter", "content_filter") },
    ];
    const model = new MockLanguageModelV3({ doStream: streamed(parts) });
    const responses = await collect(callModel(model, request(), setup(true).options));
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({ errorCode: "SAFETY" });
    expect(responses[0]?.content).toBeUndefined();
  });

  it("cancels the provider's stream when the caller stops reading", async () => {
    let cancelled = false;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of textStream("a", "b")) controller.enqueue(part);
      },
      cancel() {
        cancelled = true;
      },
    });
    const model = new MockLanguageModelV3({ doStream: { stream } });
    for await (const _ of callModel(model, request(), setup(true).options)) break;
    expect(cancelled).toBe(true);
  });
});
