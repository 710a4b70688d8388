// test/support/mcp-v2-shop.ts (the official v2 SDK's server) as its own process, for the workerd tests: it
// prints one JSON line, {"port": n}, once it listens on 127.0.0.1.
import { createServer } from "node:http";
import { serveShop } from "./mcp-v2-shop.js";

const http = createServer((req, res) => {
  serveShop(req, res).catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(500).end(String(error));
  });
});
http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
