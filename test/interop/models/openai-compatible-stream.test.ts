import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { beforeEach, describe, expect, it } from "vitest";
import { openaiCompatible } from "../../../src/models/openai-compatible-provider.js";
import { localServer } from "../support/local-server.js";

/**
 * Baton reads a streamed Chat Completions answer itself (one stream, not the SDK's five). These tests hold
 * it to the AI SDK's own reader: the same scripted answer, served by one local server to the SDK's model
 * and to Baton's, must give the same stream parts, errors and request.
 */

/** One scripted answer: the status, the body's pieces, each written as it is (split anywhere), and whether it stays open. */
interface Reply {
  status: number;
  headers?: Record<string, string>;
  pieces: Array<string | Uint8Array>;
  open?: true;
  /** Each piece is flushed before the next is written, so the client reads them apart. */
  paced?: true;
}

const replies: Reply[] = [];
const received: Array<{ headers: IncomingMessage["headers"]; body: unknown }> = [];

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = "";
  for await (const piece of req) raw += String(piece);
  received.push({ headers: req.headers, body: JSON.parse(raw) });
  const reply = replies.shift() ?? { status: 500, pieces: ['{"error":{"message":"no scripted reply"}}'] };
  const type = reply.status === 200 ? "text/event-stream" : "application/json";
  res.writeHead(reply.status, { "content-type": type, ...reply.headers });
  for (const piece of reply.pieces)
    if (reply.paced) await new Promise<void>((resolve) => res.write(piece, () => resolve()));
    else res.write(piece);
  if (!reply.open) res.end();
}

const local = localServer(handle);
const baseURL = () => `${local.origin()}/v1`;

beforeEach(() => {
  replies.length = 0;
  received.length = 0;
});

const MODEL = "org/model:latest";
const sdkModel = (): LanguageModelV3 =>
  createOpenAICompatible({
    name: "openai-compatible",
    baseURL: baseURL(),
    apiKey: "k",
    includeUsage: true,
  }).chatModel(MODEL);
const batonModel = (): LanguageModelV3 =>
  openaiCompatible().model(
    MODEL,
    { OPENAI_COMPATIBLE_BASE_URL: baseURL(), OPENAI_COMPATIBLE_API_KEY: "k" },
    `openai-compatible:${MODEL}`,
  );

const prompt: LanguageModelV3CallOptions["prompt"] = [
  { role: "user", content: [{ type: "text", text: "hi" }] },
];

/** An SSE body of these chunks (objects are sent as JSON, strings as they are), ending with `[DONE]`. */
const sse = (...chunks: Array<object | string>): string[] => [
  ...chunks.map((c) => `data: ${typeof c === "string" ? c : JSON.stringify(c)}\n\n`),
  "data: [DONE]\n\n",
];

const base = { id: "chatcmpl-7", object: "chat.completion.chunk", created: 1_767_225_600, model: "served" };
const delta = (d: object, finish: string | null = null) => ({
  ...base,
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});
const usage = (u: object) => ({ ...base, choices: [], usage: u });

/** A part as compared: errors by class, message (the SDK's schema words differ) and what they carry. */
function comparable(part: LanguageModelV3StreamPart): unknown {
  if (part.type !== "error" || !(part.error instanceof Error)) return part;
  const { name } = part.error;
  const validation = name === "AI_TypeValidationError";
  return {
    type: "error",
    name,
    ...(validation ? {} : { message: part.error.message }),
    ...("statusCode" in part.error ? { statusCode: part.error.statusCode } : {}),
  };
}

/** Generated tool call ids differ run to run: number them by first appearance. */
function numberedIds(parts: unknown[]): unknown[] {
  const ids = new Map<string, string>();
  const text = JSON.stringify(parts, (key, value: unknown) => {
    if (
      (key === "id" || key === "toolCallId") &&
      typeof value === "string" &&
      /^[A-Za-z0-9]{16}$/.test(value)
    ) {
      if (!ids.has(value)) ids.set(value, `generated-${ids.size}`);
      return ids.get(value);
    }
    return value;
  });
  return JSON.parse(text) as unknown[]; // SAFETY: the JSON text of an array is an array.
}

async function partsOf(
  model: LanguageModelV3,
  options: Partial<LanguageModelV3CallOptions>,
): Promise<unknown[]> {
  const { stream } = await model.doStream({ prompt, ...options });
  const parts: unknown[] = [];
  try {
    for await (const part of stream) parts.push(comparable(part));
  } catch (error) {
    // A stream that fails is compared by where it failed and with what.
    parts.push({ failed: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
  return numberedIds(parts);
}

/** Serves `reply` to the SDK's model, then to Baton's, and gives both parts lists and both requests. */
async function both(reply: Reply, options: Partial<LanguageModelV3CallOptions> = {}) {
  replies.push(reply, reply);
  const sdk = await partsOf(sdkModel(), options);
  const baton = await partsOf(batonModel(), options);
  return { sdk, baton, requests: received.map((r) => r.body) };
}

const ok = (pieces: string[]): Reply => ({ status: 200, pieces });

describe("openai-compatible streaming: Baton's reader against the AI SDK's", () => {
  const cases: Array<[string, string[]]> = [
    [
      "text over several deltas, then usage in a chunk of its own",
      sse(
        delta({ role: "assistant", content: "It is " }),
        delta({ content: "sunny." }),
        delta({}, "stop"),
        usage({ prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 }),
      ),
    ],
    [
      "reasoning_content before the answer, and reasoning tokens and cached tokens in usage",
      sse(
        delta({ reasoning_content: "Think" }),
        delta({ reasoning_content: "ing." }),
        delta({ content: "Done." }, "stop"),
        usage({
          prompt_tokens: 20,
          completion_tokens: 10,
          prompt_tokens_details: { cached_tokens: 5 },
          completion_tokens_details: {
            reasoning_tokens: 6,
            accepted_prediction_tokens: 2,
            rejected_prediction_tokens: 1,
          },
        }),
      ),
    ],
    [
      "reasoning named `reasoning`, as some gpt-oss servers send it",
      sse(delta({ reasoning: "hm" }), delta({ content: "ok" }, "stop")),
    ],
    [
      "content as typed parts, thinking and text",
      sse(
        delta({
          content: [
            {
              type: "thinking",
              thinking: [
                { type: "text", text: "deep " },
                { type: "text", text: "thought" },
              ],
            },
          ],
        }),
        delta(
          {
            content: [
              { type: "text", text: "Answer" },
              { type: "image", url: "x" },
            ],
          },
          "stop",
        ),
      ),
    ],
    [
      "a refusal, which stops as content-filter",
      sse(delta({ refusal: "I can't help." }), delta({ refusal: false }, "stop")),
    ],
    [
      "one tool call whose arguments come in pieces",
      sse(
        delta({
          tool_calls: [
            { index: 0, id: "call_1", type: "function", function: { name: "get_forecast", arguments: "" } },
          ],
        }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
        delta({}, "tool_calls"),
      ),
    ],
    [
      "two tool calls interleaved by index, after reasoning",
      sse(
        delta({ reasoning_content: "two lookups" }),
        delta({ tool_calls: [{ index: 0, id: "a", function: { name: "one", arguments: '{"x"' } }] }),
        delta({ tool_calls: [{ index: 1, id: "b", function: { name: "two", arguments: '{"y":2}' } }] }),
        delta({ tool_calls: [{ index: 0, function: { arguments: ":1}" } }] }),
        delta({}, "tool_calls"),
      ),
    ],
    [
      "a tool call whose arguments come before its name",
      sse(
        delta({ tool_calls: [{ index: 0, id: "late", function: { arguments: '{"q":' } }] }),
        delta({ tool_calls: [{ index: 0, function: { name: "search", arguments: '"x"}' } }] }),
        delta({}, "tool_calls"),
      ),
    ],
    [
      "a tool call that never gets a name",
      sse(
        delta({ tool_calls: [{ index: 0, id: "nameless", function: { arguments: "{}" } }] }),
        delta({}, "tool_calls"),
      ),
    ],
    [
      "tool calls without an index and with a thought signature, as Gemini sends them",
      sse(
        delta({
          tool_calls: [
            {
              id: "g1",
              function: { name: "lookup", arguments: '{"a":1}' },
              extra_content: { google: { thought_signature: "sig" } },
            },
          ],
        }),
        delta({}, "tool_calls"),
      ),
    ],
    [
      "a tool call with neither an index nor a name",
      sse(delta({ tool_calls: [{ id: "x", function: { arguments: "{}" } }] }), delta({}, "tool_calls")),
    ],
    [
      "an error chunk in the middle",
      sse(delta({ content: "Hal" }), { error: { message: "overloaded", code: 529 } }, delta({}, "stop")),
    ],
    ["a chunk that is not JSON", sse(delta({ content: "a" }), "{not json", delta({}, "stop"))],
    ["a chunk of the wrong shape", sse(delta({ content: "a" }), { choices: "no" }, delta({}, "stop"))],
    ["an answer that never says why it finished", sse(delta({ content: "cut" }))],
    ["no chunks at all", sse()],
    ["a finish reason of length", sse(delta({ content: "long" }, "length"))],
    ["a finish reason no one knows", sse(delta({ content: "odd" }, "weird_reason"))],
    ["a chunk with no choices and no usage", sse({ ...base, choices: [] }, delta({ content: "x" }, "stop"))],
  ];

  it.each(cases)("gives the SDK's parts for %s", async (_name, pieces) => {
    const { sdk, baton } = await both(ok(pieces));
    expect(baton).toEqual(sdk);
  });

  it("gives the SDK's parts when the body's bytes split lines, events and characters anywhere", async () => {
    const text = sse(
      delta({ content: "Grüße, " }),
      delta({ content: "naïve café ☕" }, "stop"),
      usage({ prompt_tokens: 1 }),
    ).join("");
    const bytes = Buffer.from(text.replaceAll("\n", "\r\n"));
    const pieces: Uint8Array[] = [];
    // Every 7 bytes, cutting through lines, CRLFs and multi-byte characters.
    for (let i = 0; i < bytes.length; i += 7) pieces.push(bytes.subarray(i, i + 7));
    const reply: Reply = { status: 200, pieces };
    replies.push(reply, reply);
    const sdk = await partsOf(sdkModel(), {});
    const baton = await partsOf(batonModel(), {});
    expect(baton).toEqual(sdk);
    expect(baton).toContainEqual({ type: "text-delta", id: "txt-0", delta: "naïve café ☕" });
  });

  it("gives the SDK's parts when the events arrive one read at a time, `[DONE]` alone in the last", async () => {
    const reply: Reply = {
      status: 200,
      paced: true,
      pieces: sse(
        delta({ content: "one" }),
        delta({ content: "two" }),
        delta({}, "stop"),
        usage({ total_tokens: 3 }),
      ),
    };
    replies.push(reply, reply);
    const sdk = await partsOf(sdkModel(), {});
    const baton = await partsOf(batonModel(), {});
    expect(baton).toEqual(sdk);
    expect(baton.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
  });

  it("gives raw chunks when asked, and metadata under the openaiCompatible key when the call used it", async () => {
    const { sdk, baton } = await both(ok(sse(delta({ content: "x" }), "{bad", delta({}, "stop"))), {
      includeRawChunks: true,
      providerOptions: { openaiCompatible: { user: "u-1" } },
    });
    expect(baton).toEqual(sdk);
    expect(baton.at(-1)).toMatchObject({ type: "finish", providerMetadata: { openaiCompatible: {} } });
  });

  it("sends the SDK's request: messages, tools, settings and provider options, and gives its warnings", async () => {
    const options: Partial<LanguageModelV3CallOptions> = {
      prompt: [
        { role: "system", content: "Be terse." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "file", mediaType: "image/png", data: new Uint8Array([1, 2, 3]) },
          ],
        },
        {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "c1", toolName: "look", input: { at: "it" } }],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "look",
              output: { type: "json", value: { seen: true } },
            },
          ],
        },
      ],
      tools: [
        {
          type: "function",
          name: "look",
          description: "Looks",
          inputSchema: { type: "object", properties: {} },
        },
      ],
      toolChoice: { type: "auto" },
      temperature: 0.2,
      maxOutputTokens: 100,
      topK: 3,
      stopSequences: ["END"],
      seed: 7,
      providerOptions: { "openai-compatible": { user: "u-2", reasoningEffort: "low", custom_field: 1 } },
    };
    const pieces = sse(delta({ content: "ok" }, "stop"));
    const { sdk, baton, requests } = await both(ok(pieces), options);
    expect(baton).toEqual(sdk);
    expect(requests[1]).toEqual(requests[0]);
    expect(requests[1]).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      custom_field: 1,
    });
    expect(baton[0]).toMatchObject({
      type: "stream-start",
      warnings: expect.arrayContaining([{ type: "unsupported", feature: "topK" }]),
    });
    expect(received[1]?.headers.authorization).toBe("Bearer k");
    expect(received[1]?.headers["user-agent"]).toBe(received[0]?.headers["user-agent"]);
  });

  it.each([
    [429, { "retry-after": "3" }],
    [503, {}],
    [400, {}],
  ])("fails a %i answer with the SDK's call error", async (status, headers) => {
    const reply: Reply = {
      status,
      headers,
      pieces: [JSON.stringify({ error: { message: `no (${status})` } })],
    };
    replies.push(reply, reply);
    const failure = (model: LanguageModelV3) =>
      model.doStream({ prompt }).then(
        () => undefined,
        (error: unknown) => error,
      );
    const [sdk, baton] = [await failure(sdkModel()), await failure(batonModel())];
    expect(baton).toMatchObject({
      name: "AI_APICallError",
      message: `no (${status})`,
      statusCode: status,
      isRetryable: (sdk as { isRetryable: boolean }).isRetryable, // SAFETY: checked just below to be the SDK's APICallError.
      responseHeaders: expect.objectContaining(headers),
    });
    expect(sdk).toMatchObject({ name: "AI_APICallError", message: `no (${status})`, statusCode: status });
  });

  it("fails like the SDK when no server answers", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port; // SAFETY: a TCP listen gives an AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const env = { OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${port}/v1` };
    const sdk = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: env.OPENAI_COMPATIBLE_BASE_URL,
    }).chatModel(MODEL);
    const baton = openaiCompatible().model(MODEL, env, `openai-compatible:${MODEL}`);
    const failure = (model: LanguageModelV3) =>
      model.doStream({ prompt }).then(
        () => undefined,
        (error: unknown) => error,
      );
    const [sdkError, batonError] = [await failure(sdk), await failure(baton)];
    expect(sdkError).toMatchObject({ name: "AI_APICallError", isRetryable: true });
    expect(batonError).toMatchObject({
      name: "AI_APICallError",
      isRetryable: true,
      message: (sdkError as Error).message,
    }); // SAFETY: matched just above as an APICallError.
  });

  it("sends an unstreamed call whose provider options set `stream`, as the SDK does", async () => {
    const completion = {
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "whole" }, finish_reason: "stop" }],
    };
    replies.push({ status: 200, pieces: [JSON.stringify(completion)] });
    const result = await batonModel().doGenerate({
      prompt,
      providerOptions: { "openai-compatible": { stream: true } },
    });
    expect(result.content).toEqual([{ type: "text", text: "whole" }]);
    expect(received[0]?.body).toMatchObject({ stream: true });
  });

  it("fails as the SDK does on a tool call it cannot place, and lets the connection go", async () => {
    const closed = new Promise<void>((resolve) => {
      const nameless = delta({ tool_calls: [{ id: "x", function: { arguments: "{}" } }] });
      replies.push({ status: 200, pieces: [`data: ${JSON.stringify(nameless)}\n\n`], open: true });
      local.server.once("request", (_req: IncomingMessage, res: ServerResponse) =>
        res.once("close", () => resolve()),
      );
    });
    const parts = await partsOf(batonModel(), {});
    expect(parts.at(-1)).toEqual({
      failed: "AI_InvalidResponseDataError: Expected 'function.name' to be a string.",
    });
    await closed;
  });

  it("stops reading when the caller cancels, and the server sees the connection close", async () => {
    const closed = new Promise<void>((resolve) => {
      replies.push({
        status: 200,
        pieces: [`data: ${JSON.stringify(delta({ content: "first" }))}\n\n`],
        open: true,
      });
      local.server.once("request", (_req: IncomingMessage, res: ServerResponse) =>
        res.once("close", () => resolve()),
      );
    });
    const { stream } = await batonModel().doStream({ prompt });
    const reader = stream.getReader();
    expect(await reader.read()).toMatchObject({ value: { type: "stream-start" } });
    await reader.cancel();
    await closed;
  });
});
