// test/support/mcp-v2-shop.ts (the official v2 SDK's server) as its own process, for the workerd tests: it
// prints one JSON line, {"port": n}, once it listens on 127.0.0.1. `GET /seen?test=<x-test>` answers the
// requests that test sent (what the server saw of them), so a test in workerd can check the wire.
import { createServer } from "node:http";
import { type Seen, serveShop } from "./mcp-v2-shop.js";

const seen: Seen[] = [];

const http = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (url.pathname === "/seen") {
    const test = url.searchParams.get("test");
    res.writeHead(200, { "content-type": "application/json" });
    return void res.end(JSON.stringify(seen.filter((s) => s.test === test)));
  }
  serveShop(req, res, (s) => seen.push(s)).catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(500).end(String(error));
  });
});
http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
