// Runs in Node (vitest globalSetup), never in workerd: receives `onResult` deliveries and checks their
// Standard Webhooks signature with the `standardwebhooks` package, independently of Baton's own code.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** The signing secret the tests give their hooks' `onResult` (a `whsec_` base64 key). */
export const RESULT_SECRET = `whsec_${Buffer.from("baton-test-result-secret-0123456789").toString("base64")}`;

/** One delivery as the receiver saw it. */
export interface ReceivedResult {
  webhookId: string | undefined;
  /** `webhook-timestamp`, Unix seconds. */
  timestamp: number;
  status: number;
  /** Whether `webhook-signature` holds the package's signature of id, timestamp and body. */
  verified: boolean;
  body: unknown;
}

const DELIVER = /^\/r\/([^/]+)(?:\/fail-(\d+))?$/;

async function readText(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(Buffer.from(part));
  return Buffer.concat(parts).toString("utf8");
}

/** POST `/r/:id[/fail-N]` records a delivery (the first N answer 503); GET `/r/:id` lists them. */
export async function startResultReceiver(): Promise<{ server: Server; url: string }> {
  const received = new Map<string, ReceivedResult[]>();
  const webhook = new Webhook(RESULT_SECRET);
  const server = createServer(async (req, res) => {
    const match = DELIVER.exec(new URL(req.url ?? "/", "http://receiver").pathname);
    const id = match?.[1];
    if (!id) return void res.writeHead(404).end();
    const list = received.get(id) ?? [];
    received.set(id, list);
    if (req.method === "GET")
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(list));
    const text = await readText(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    // The package's own signature for these headers; its `verify` would also judge the timestamp by the
    // real clock, while the tests run Baton on a fixed one, so the timestamp is reported instead.
    const messageId = headers["webhook-id"] ?? "";
    const timestamp = Number(headers["webhook-timestamp"]);
    const expected = webhook.sign(messageId, new Date(timestamp * 1000), text);
    const verified = (headers["webhook-signature"] ?? "").split(" ").includes(expected);
    const status = list.length < Number(match?.[2] ?? 0) ? 503 : verified ? 204 : 401;
    list.push({ webhookId: headers["webhook-id"], timestamp, status, verified, body: JSON.parse(text) });
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // SAFETY: a server listening on TCP reports an AddressInfo.
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}
