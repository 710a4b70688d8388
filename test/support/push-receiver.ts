import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One push notification as the receiver saw it. */
export interface ReceivedPush {
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** The status the receiver answered. */
  status: number;
}

export interface PushReceiver {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every notification so far, oldest first. */
  received: ReceivedPush[];
  /** The notifications POSTed to `path`; waits until `until` holds of them (default: one arrived). */
  waitFor(
    path: string,
    until?: (pushes: ReceivedPush[]) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

/**
 * An HTTP receiver of A2A push notifications on 127.0.0.1 (an ephemeral port), as a client's webhook
 * would be. A POST to a path ending `/fail-N` is answered 503 the first N times (a receiver that is down
 * for a while); every other POST 200. A GET of a path answers the pushes POSTed to it, as JSON (how
 * workerd tests, which cannot call `waitFor`, read them).
 */
export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk));
    const path = new URL(req.url ?? "/", "http://receiver").pathname;
    if (req.method === "GET") {
      const pushes = received.filter((r) => r.path === path);
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(pushes));
    }
    const failures = Number(/\/fail-(\d+)$/.exec(path)?.[1] ?? 0);
    const earlier = received.filter((r) => r.path === path).length;
    const status = req.method !== "POST" ? 405 : earlier < failures ? 503 : 200;
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const text = Buffer.concat(chunks).toString("utf8");
    received.push({ path, headers, body: text ? JSON.parse(text) : null, status });
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // SAFETY: a server listening on TCP reports an AddressInfo.
  const { port } = server.address() as AddressInfo;
  const waitFor = async (
    path: string,
    until: (pushes: ReceivedPush[]) => boolean = (pushes) => pushes.length > 0,
    timeoutMs = 20_000,
  ) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pushes = received.filter((r) => r.path === path);
      if (until(pushes)) return pushes;
      if (Date.now() > deadline)
        throw new Error(`No matching push to ${path} within ${timeoutMs} ms: ${JSON.stringify(pushes)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
