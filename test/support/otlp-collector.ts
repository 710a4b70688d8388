import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedPost {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * An OTLP/HTTP collector stand-in on 127.0.0.1: it records every POST's JSON body and answers 200; a GET
 * answers the recorded bodies as a JSON array (for tests in workerd, which cannot read this process).
 */
export async function startCollector() {
  const posts: RecordedPost[] = [];
  const waiting: (() => void)[] = [];
  const server = createServer((req, res) => {
    if (req.method === "GET") {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(posts.map((p) => p.body)));
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      posts.push({
        path: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString()),
      });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // SAFETY: a server listening on a TCP port reports an AddressInfo.
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    /** Resolves once `count` POSTs have arrived. */
    received(count: number): Promise<void> {
      if (posts.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.push(() => void this.received(count).then(resolve)));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status: { code?: number; message?: string };
}

/** The spans of an OTLP JSON `ExportTraceServiceRequest`, flattened. */
export function otlpSpans(body: unknown): OtlpSpan[] {
  // SAFETY: the bodies come from the OTLP JSON serializer; the tests check the fields they read.
  const request = body as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
  return request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
}
