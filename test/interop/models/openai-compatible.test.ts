import type { IncomingMessage, ServerResponse } from "node:http";
import { beforeEach, describe, expect, it } from "vitest";
import type { LlmRequest, LlmResponse } from "../../../src/core/llm.js";
import { callModel } from "../../../src/models/call-model.js";
import { openaiCompatible } from "../../../src/models/openai-compatible-provider.js";
import { ModelRegistry } from "../../../src/services/model-registry.js";
import { localServer } from "../support/local-server.js";

const registry = new ModelRegistry([openaiCompatible()]);

/** What the fake server answers next; it records every request it gets. */
type Reply = { status: number; json: unknown } | { status: 200; sse: unknown[] };

const replies: Reply[] = [];
const received: Array<{ url: string; auth: string | undefined; body: Record<string, unknown> }> = [];

const completion = (message: Record<string, unknown>, finishReason: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "served-model",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason }],
  usage: { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 },
});

const chunk = (
  delta: Record<string, unknown>,
  finishReason: string | null,
  usage?: Record<string, number>,
) => ({
  id: "chatcmpl-2",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: "served-model",
  choices: [{ index: 0, delta, finish_reason: finishReason }],
  ...(usage ? { usage } : {}),
});

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = "";
  for await (const piece of req) raw += String(piece);
  received.push({ url: req.url ?? "", auth: req.headers.authorization, body: JSON.parse(raw) });
  const reply = replies.shift() ?? { status: 500, json: { error: { message: "no scripted reply" } } };
  if ("sse" in reply) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const event of reply.sse) res.write(`data: ${JSON.stringify(event)}\n\n`);
    res.end("data: [DONE]\n\n");
    return;
  }
  res.writeHead(reply.status, { "content-type": "application/json", "retry-after": "0" });
  res.end(JSON.stringify(reply.json));
}

const local = localServer(handle);
const baseUrl = () => `${local.origin()}/v1`;

beforeEach(() => {
  replies.length = 0;
  received.length = 0;
});

const env = () => ({ OPENAI_COMPATIBLE_BASE_URL: baseUrl(), OPENAI_COMPATIBLE_API_KEY: "test-key" });
const slept: number[] = [];
const run = (streaming: boolean) => ({
  streaming,
  retry: { attempts: 3, initialDelayMs: 10, maxDelayMs: 100 },
  sleep: async (ms: number) => void slept.push(ms),
  random: () => 0,
});

async function call(request: LlmRequest, streaming: boolean): Promise<LlmResponse[]> {
  const model = registry.resolve("openai-compatible:org/model:latest", env());
  const out: LlmResponse[] = [];
  for await (const response of callModel(model, request, run(streaming))) out.push(response);
  return out;
}

const question: LlmRequest = {
  config: {},
  systemInstruction: "You are terse.",
  contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }],
  tools: [
    {
      name: "get_forecast",
      description: "Forecast for a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
};

describe("openai-compatible: against a Chat Completions server", () => {
  it("sends the prompt, tools, model id and key, and reads a tool call", async () => {
    replies.push({
      status: 200,
      json: completion(
        {
          content: null,
          tool_calls: [
            {
              id: "call_abc",
              type: "function",
              function: { name: "get_forecast", arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        "tool_calls",
      ),
    });
    const [response] = await call(question, false);
    expect(received[0]?.url).toBe("/v1/chat/completions");
    expect(received[0]?.auth).toBe("Bearer test-key");
    expect(received[0]?.body).toMatchObject({
      model: "org/model:latest",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "Weather in Oslo?" },
      ],
      tools: [{ type: "function", function: { name: "get_forecast" } }],
    });
    expect(response).toMatchObject({
      content: {
        role: "model",
        parts: [{ functionCall: { id: "call_abc", name: "get_forecast", args: { city: "Oslo" } } }],
      },
      finishReason: "STOP",
      usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 5, totalTokenCount: 16 },
    });
  });

  it("sends a function response back as a tool message with the call's id", async () => {
    replies.push({ status: 200, json: completion({ content: "It is sunny." }, "stop") });
    const followUp: LlmRequest = {
      ...question,
      contents: [
        ...question.contents,
        {
          role: "model",
          parts: [{ functionCall: { id: "call_abc", name: "get_forecast", args: { city: "Oslo" } } }],
        },
        {
          role: "user",
          parts: [{ functionResponse: { id: "call_abc", name: "get_forecast", response: { sky: "sunny" } } }],
        },
      ],
    };
    const [response] = await call(followUp, false);
    const messages = received[0]?.body.messages;
    expect(messages).toContainEqual({ role: "tool", tool_call_id: "call_abc", content: '{"sky":"sunny"}' });
    expect(response?.content?.parts).toEqual([{ text: "It is sunny." }]);
  });

  it("streams SSE chunks as partials, then one aggregated response", async () => {
    replies.push({
      status: 200,
      sse: [
        chunk({ role: "assistant", content: "It is " }, null),
        chunk({ content: "sunny." }, null),
        chunk({}, "stop", { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 }),
      ],
    });
    const responses = await call(question, true);
    expect(received[0]?.body).toMatchObject({ stream: true });
    expect(responses.map((r) => [r.partial, r.content?.parts?.[0]?.text])).toEqual([
      [true, "It is "],
      [true, "sunny."],
      [undefined, "It is sunny."],
    ]);
    expect(responses.at(-1)?.usageMetadata).toEqual({
      promptTokenCount: 4,
      candidatesTokenCount: 3,
      totalTokenCount: 7,
    });
  });

  it("retries a 503 and then answers", async () => {
    slept.length = 0;
    replies.push({ status: 503, json: { error: { message: "overloaded" } } });
    replies.push({ status: 200, json: completion({ content: "Back." }, "stop") });
    const [response] = await call(question, false);
    expect(received).toHaveLength(2);
    expect(slept).toEqual([0]);
    expect(response?.content?.parts).toEqual([{ text: "Back." }]);
  });

  it("reports MODEL_UNAVAILABLE with the server's message when every attempt gets a 503", async () => {
    for (let i = 0; i < 3; i++) replies.push({ status: 503, json: { error: { message: "overloaded" } } });
    const error = await call(question, true).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(received).toHaveLength(3);
    expect(error).toMatchObject({
      code: "MODEL_UNAVAILABLE",
      upstreamStatus: 503,
      message: expect.stringContaining("overloaded"),
    });
  });
});
