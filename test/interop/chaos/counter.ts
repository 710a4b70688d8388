// The chaos run's counter: what the Worker's tools call. `charge` (not idempotent) must be hit at most once
// per order, whatever the kills did; `lookup` (idempotent) may be read again by a resumed turn.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One tool call the counter took: which tool, for which order, when it came and ended. */
export interface ToolHit {
  tool: "charge" | "lookup";
  ref: string;
  at: number;
  doneAt?: number;
}

const LOOKUP_MS = 150;

/** The counter on an ephemeral port of 127.0.0.1. A charge is answered after its `hold` ms. */
export async function startCounter(): Promise<{ url: string; hits: ToolHit[]; close(): Promise<void> }> {
  const hits: ToolHit[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://counter");
    const tool = url.pathname.slice(1);
    if (tool !== "charge" && tool !== "lookup") return void res.writeHead(404).end();
    const hit: ToolHit = { tool, ref: url.searchParams.get("ref") ?? "", at: Date.now() };
    hits.push(hit);
    // A lookup takes a little while too, so a chain of them spans the kill more often.
    const hold = tool === "charge" ? Number(url.searchParams.get("hold") ?? 0) : LOOKUP_MS;
    const timer = setTimeout(() => res.end(`${tool} ${hit.ref} ok`), hold);
    // The response closes when it was answered or its caller died (a kill): either way the call is over.
    res.once("close", () => {
      clearTimeout(timer);
      hit.doneAt = Date.now();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // SAFETY: a server listening on a TCP port reports an AddressInfo.
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
