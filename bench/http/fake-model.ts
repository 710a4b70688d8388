/**
 * A zero-latency OpenAI-compatible model on 127.0.0.1: every `POST …/chat/completions` gets the same short
 * assistant text at once, as JSON or (with `"stream": true`) as SSE. It keeps the size of the last request
 * body per model id, so the driver can show that Baton and the baseline send bodies of about the same size.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_ANSWER = "Sure: here is a short answer.";

export interface FakeModel {
  /** `http://127.0.0.1:<port>/v1`, the `OPENAI_COMPATIBLE_BASE_URL` to give the Worker. */
  baseUrl: string;
  /** The byte size of the last request body, per model id. */
  lastBodyBytes: Map<string, number>;
  close(): Promise<void>;
}

const completion = (model: string) => ({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1_767_225_600,
  model,
  choices: [{ index: 0, message: { role: "assistant", content: FAKE_ANSWER }, finish_reason: "stop" }],
  usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
});

function chunks(model: string): string {
  const base = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1_767_225_600, model };
  const frames = [
    {
      ...base,
      choices: [{ index: 0, delta: { role: "assistant", content: FAKE_ANSWER }, finish_reason: null }],
    },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    { ...base, choices: [], usage: completion(model).usage },
  ];
  return `${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join("")}data: [DONE]\n\n`;
}

// The body is scanned, not parsed: a 1 MB history should cost the fake nothing worth measuring.
const modelOf = (body: string): string => /"model"\s*:\s*"([^"]*)"/.exec(body)?.[1] ?? "?";
const wantsStream = (body: string): boolean => /"stream"\s*:\s*true/.test(body);

function answer(req: IncomingMessage, res: ServerResponse, sizes: FakeModel["lastBodyBytes"]): void {
  const parts: Buffer[] = [];
  req.on("data", (chunk: Buffer) => parts.push(chunk));
  req.on("end", () => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    const body = Buffer.concat(parts).toString("utf8");
    const model = modelOf(body);
    sizes.set(model, Buffer.byteLength(body));
    if (wantsStream(body)) {
      res.writeHead(200, { "content-type": "text/event-stream" }).end(chunks(model));
    } else {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion(model)));
    }
  });
}

/** Starts the fake on an ephemeral port of 127.0.0.1. */
export async function startFakeModel(): Promise<FakeModel> {
  const lastBodyBytes: FakeModel["lastBodyBytes"] = new Map();
  const server = createServer((req, res) => answer(req, res, lastBodyBytes));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // SAFETY: a server listening on a TCP host and port reports an AddressInfo, never a pipe name.
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    lastBodyBytes,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
