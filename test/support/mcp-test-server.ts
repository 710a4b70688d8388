// An MCP server built with the official SDK, run as its own process by the tests (`startMcpTestServer`):
//   /mcp          stateless Streamable HTTP: lookup_order, cancel_order, whoami, wait_forever
//   /legacy       the older HTTP+SSE transport only (POST to it answers 405, as such servers do)
//   /half-broken  lists tools as /mcp does, but answers every tools/call with a body that is not JSON
//   POST /exit    stops the process: the next request finds nothing listening
// It prints one JSON line, {"port": n}, once it listens on 127.0.0.1.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as z from "zod";

function shop(): McpServer {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  server.registerTool(
    "lookup_order",
    {
      description: "Looks up an order by its number and tells its shipping status",
      inputSchema: { orderId: z.string().describe("The order number") },
      outputSchema: { orderId: z.string(), status: z.string() },
    },
    async ({ orderId }) => ({
      content: [{ type: "text", text: `Order ${orderId} has shipped.` }],
      structuredContent: { orderId, status: "shipped" },
    }),
  );
  server.registerTool(
    "cancel_order",
    { description: "Cancels an order by its number", inputSchema: { orderId: z.string() } },
    async ({ orderId }) => ({ content: [{ type: "text", text: `Order ${orderId} canceled.` }] }),
  );
  server.registerTool(
    "whoami",
    { description: "Says which customer the request came for, from its x-customer header", inputSchema: {} },
    async (_args, extra) => {
      const customer = extra.requestInfo?.headers["x-customer"];
      return { content: [{ type: "text", text: `customer=${String(customer)}` }] };
    },
  );
  server.registerTool(
    "wait_forever",
    { description: "Waits for a delivery slot that never comes", inputSchema: { slot: z.string() } },
    () => new Promise<never>(() => undefined),
  );
  return server;
}

const readJson = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
};

async function streamable(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const server = shop();
  const transport = new StreamableHTTPServerTransport({});
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

const legacy = new Map<string, SSEServerTransport>();

const http = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  try {
    if (url.pathname === "/exit" && req.method === "POST") {
      http.close(); // stops listening now: the next connection is refused
      res.writeHead(204, { connection: "close" }).end(() => process.exit(0));
      return;
    }
    if (url.pathname === "/mcp") {
      if (req.method !== "POST") return void res.writeHead(405).end();
      return await streamable(req, res, await readJson(req));
    }
    if (url.pathname === "/half-broken" && req.method === "POST") {
      const body = await readJson(req);
      const method = typeof body === "object" && body !== null && "method" in body ? body.method : undefined;
      if (method !== "tools/call") return await streamable(req, res, body);
      return void res.writeHead(200, { "content-type": "application/json" }).end("<html>oops</html>");
    }
    if (url.pathname === "/legacy" && req.method === "GET") {
      const transport = new SSEServerTransport("/legacy/messages", res);
      legacy.set(transport.sessionId, transport);
      res.on("close", () => legacy.delete(transport.sessionId));
      return await shop().connect(transport);
    }
    if (url.pathname === "/legacy/messages" && req.method === "POST") {
      const transport = legacy.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) return void res.writeHead(404).end();
      return await transport.handlePostMessage(req, res, await readJson(req));
    }
    res.writeHead(url.pathname === "/legacy" ? 405 : 404).end();
  } catch (error) {
    if (!res.headersSent) res.writeHead(500).end(String(error));
  }
});

http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
