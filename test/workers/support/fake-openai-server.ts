// Runs in Node (vitest globalSetup), never in workerd: a scripted OpenAI-compatible Chat Completions server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type FakeCall, type FakeCallLog, parseFakeOptions } from "./fake-model-protocol.js";
import { type ChatRequest, chunks, completion, replyTo, settingsOf, textOf } from "./fake-openai-replies.js";

async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(Buffer.from(part));
  return JSON.parse(Buffer.concat(parts).toString("utf8"));
}

/** What the server remembers, per test id. */
class CallLog {
  readonly #logs = new Map<string, FakeCallLog & { inFlight: number }>();

  of(testId: string): FakeCallLog & { inFlight: number } {
    let log = this.#logs.get(testId);
    if (!log) {
      log = { calls: [], maxInFlight: 0, inFlight: 0 };
      this.#logs.set(testId, log);
    }
    return log;
  }
}

const CHAT = /^\/t\/([^/]+)\/([^/]+)\/v1\/chat\/completions$/;
const CALLS = /^\/t\/([^/]+)\/calls$/;

async function handle(log: CallLog, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? "/", "http://fake").pathname;
  const calls = CALLS.exec(path);
  if (req.method === "GET" && calls?.[1]) {
    const { calls: list, maxInFlight } = log.of(calls[1]);
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ calls: list, maxInFlight }));
    return;
  }
  const chat = CHAT.exec(path);
  if (req.method !== "POST" || !chat?.[1] || !chat[2]) {
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"no such route"}}');
    return;
  }
  // SAFETY: the AI SDK's openai-compatible provider sends this shape; a mismatch fails the test loudly.
  const request = (await readJson(req)) as ChatRequest;
  const options = parseFakeOptions(chat[2]);
  const entry = log.of(chat[1]);
  entry.inFlight += 1;
  entry.maxInFlight = Math.max(entry.maxInFlight, entry.inFlight);
  try {
    if (options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const down = options.down.includes(request.model);
    const call: FakeCall = {
      model: request.model,
      stream: request.stream === true,
      lastMessage: textOf(request.messages.at(-1)),
      system: request.messages
        .filter((m) => m.role === "system")
        .map(textOf)
        .join("\n"),
      settings: settingsOf(request),
      status: down ? 503 : 200,
    };
    entry.calls.push(call);
    if (down) {
      res
        .writeHead(503, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `${request.model} is overloaded`, type: "server_error" } }));
      return;
    }
    const reply = replyTo(request);
    if (!request.stream) {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(completion(request.model, reply)));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const data of chunks(request.model, reply)) res.write(`data: ${data}\n\n`);
    res.end();
  } finally {
    entry.inFlight -= 1;
  }
}

/** Starts the fake on 127.0.0.1 on a free port; resolves to the server and its base URL. */
export async function startFakeOpenAiServer(): Promise<{ server: Server; url: string }> {
  const log = new CallLog();
  const server = createServer((req, res) => {
    handle(log, req, res).catch((error: unknown) => {
      res
        .writeHead(500, { "content-type": "application/json" })
        .end(JSON.stringify({ error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // SAFETY: a server listening on a TCP host and port has an AddressInfo address.
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}
