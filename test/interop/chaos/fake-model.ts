// The chaos run's model: an OpenAI-compatible Chat Completions server on 127.0.0.1, scripted by the text
// of the newest user message. Node only (the run starts it); the Worker reaches it over loopback.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface ChatMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
}

interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: ChatMessage[];
}

/** One request the model took: when it came and ended, for which message tags, doing what. */
export interface ModelCall {
  at: number;
  /** When its connection closed (answered, or cut off by a kill); unset while it is under way. */
  doneAt?: number;
  tags: string[];
  kind: "answer" | "tool" | "stream" | "think" | "summary";
}

const textOf = (message: ChatMessage | undefined): string => {
  const content = message?.content;
  if (typeof content === "string") return content;
  return (content ?? []).map((p) => p.text ?? "").join("\n");
};

/** Every `#tag` in a text: a message's own tag, or the tags of the messages merged into one event. */
export const tagsIn = (text: string): string[] => text.match(/#[\w-]+/g) ?? [];

/** The answer a turn gives: it names every message it answers. */
export const answerText = (tags: readonly string[]): string => `answer ${tags.join(" ")}`;

/** What the model does next for a conversation, from its newest user message and the tool results after it. */
type Reply =
  | { kind: "text"; text: string; chunks: number; delayMs: number }
  | { kind: "tool"; name: string; args: Record<string, unknown> };

const SUMMARIZE = "Please summarize the conversation";
const CHUNK_MS = 250;

function replyTo(request: ChatRequest): { reply: Reply; tags: string[]; kind: ModelCall["kind"] } {
  const at = request.messages.findLastIndex((m) => m.role === "user");
  const user = textOf(request.messages[at]);
  const toolResults = request.messages.slice(at + 1).filter((m) => m.role === "tool").length;
  const tags = tagsIn(user);
  if (user.includes(SUMMARIZE))
    return { reply: { kind: "text", text: "summary", chunks: 1, delayMs: 1500 }, tags, kind: "summary" };
  const [command = "", value = "0"] = user
    .replace(/#[\w-]+/g, "")
    .trim()
    .split(/\s+/);
  const n = Number(value);
  const ref = tags[0] ?? "none";
  const answer = (chunks = 1, delayMs = 0): Reply => ({
    kind: "text",
    text: answerText(tags),
    chunks,
    delayMs,
  });
  if (command === "pay" && toolResults === 0)
    return { reply: { kind: "tool", name: "charge", args: { ref, hold: n } }, tags, kind: "tool" };
  if (command === "chain" && toolResults < n)
    return {
      reply: { kind: "tool", name: "lookup", args: { ref, step: toolResults + 1 } },
      tags,
      kind: "tool",
    };
  if (command === "stream") return { reply: answer(Math.max(1, n), CHUNK_MS), tags, kind: "stream" };
  if (command === "think") return { reply: answer(1, n), tags, kind: "think" };
  return { reply: answer(), tags, kind: "answer" };
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const chunk = (model: string, delta: object, finish: string | null) =>
  JSON.stringify({
    id: "chatcmpl-chaos",
    object: "chat.completion.chunk",
    created: 1_767_225_600,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

let calls = 0;
const toolCall = (reply: { name: string; args: Record<string, unknown> }) => ({
  id: `call_${++calls}`,
  type: "function",
  function: { name: reply.name, arguments: JSON.stringify(reply.args) },
});

/** Answers one request: a tool call, or text in `chunks` pieces `delayMs` apart (streamed or not). */
async function answer(request: ChatRequest, reply: Reply, res: ServerResponse): Promise<void> {
  const { model } = request;
  if (reply.kind === "tool") {
    const call = toolCall(reply);
    if (!request.stream) {
      const message = { role: "assistant", content: null, tool_calls: [call] };
      const choices = [{ index: 0, message, finish_reason: "tool_calls" }];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "chatcmpl-chaos", object: "chat.completion", model, choices, usage }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(`data: ${chunk(model, { role: "assistant", tool_calls: [{ index: 0, ...call }] }, null)}\n\n`);
    res.write(`data: ${chunk(model, {}, "tool_calls")}\n\ndata: [DONE]\n\n`);
    res.end();
    return;
  }
  const size = Math.ceil(reply.text.length / reply.chunks);
  const pieces = Array.from({ length: reply.chunks }, (_, i) => reply.text.slice(i * size, (i + 1) * size));
  if (!request.stream) {
    await sleep(reply.delayMs * reply.chunks);
    const message = { role: "assistant", content: reply.text };
    const choices = [{ index: 0, message, finish_reason: "stop" }];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: "chatcmpl-chaos", object: "chat.completion", model, choices, usage }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const [i, piece] of pieces.entries()) {
    await sleep(reply.delayMs);
    if (res.destroyed) return;
    res.write(
      `data: ${chunk(model, i === 0 ? { role: "assistant", content: piece } : { content: piece }, null)}\n\n`,
    );
  }
  res.write(`data: ${chunk(model, {}, "stop")}\n\ndata: [DONE]\n\n`);
  res.end();
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(Buffer.from(part));
  return JSON.parse(Buffer.concat(parts).toString("utf8"));
}

/** The fake model on an ephemeral port of 127.0.0.1; `calls` lists every request it took. */
export async function startFakeModel(): Promise<{ url: string; calls: ModelCall[]; close(): Promise<void> }> {
  const log: ModelCall[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      // SAFETY: the AI SDK's openai-compatible provider sends this shape; a mismatch fails the run loudly.
      const request = (await readJson(req)) as ChatRequest;
      const { reply, tags, kind } = replyTo(request);
      const call: ModelCall = { at: Date.now(), tags, kind };
      log.push(call);
      res.once("close", () => {
        call.doneAt = Date.now();
      });
      await answer(request, reply, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // SAFETY: a server listening on a TCP port reports an AddressInfo.
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls: log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
