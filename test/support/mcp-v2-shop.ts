// A shop MCP server built with the official v2 SDK (`@modelcontextprotocol/server` 2.4), for McpToolset's
// tests in Node and in workerd:
//   /mcp        createMcpHandler: 2026-07-28 (server/discover, no session) and stateless 2025-11-25
//   /stateful   2025-11-25 only, with sessions (Mcp-Session-Id), GET streams and DELETE
// Tools: lookup_order; refund_order, which asks the user to confirm (an `input_required` elicitation with
// a requestState) before it answers; where_am_i, which asks for the client's roots.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createMcpHandler,
  inputRequired,
  inputResponse,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import * as z from "zod";

/** What the server saw of one HTTP request. */
export interface Seen {
  /** "POST tools/call", "GET /stateful", "DELETE /stateful" */
  what: string;
  /** The `Mcp-Method` and `Mcp-Name` headers (2026-07-28), the protocol version header, the session. */
  mcpMethod: string | undefined;
  mcpName: string | undefined;
  version: string | undefined;
  session: string | undefined;
  /** A `tools/call`'s params. */
  params: Record<string, unknown> | undefined;
  /** The `x-test` header: which test sent it (the workerd tests read their own requests back). */
  test: string | undefined;
}

const text = (said: string) => ({ content: [{ type: "text" as const, text: said }] });

function shop(): McpServer {
  const server = new McpServer({ name: "shop-v2", version: "2.0.0" });
  server.registerTool(
    "lookup_order",
    {
      description: "Looks up an order by its number and tells its shipping status",
      inputSchema: z.object({ orderId: z.string().describe("The order number") }),
      outputSchema: z.object({ orderId: z.string(), status: z.string() }),
    },
    async ({ orderId }) => ({
      ...text(`Order ${orderId} has shipped.`),
      structuredContent: { orderId, status: "shipped" },
    }),
  );
  server.registerTool(
    "refund_order",
    {
      description: "Refunds an order, once the customer confirms",
      inputSchema: z.object({ orderId: z.string() }),
    },
    async ({ orderId }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "confirm");
      if (answer.kind === "missing")
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Refund order ${orderId}?`,
              requestedSchema: {
                type: "object",
                properties: { sure: { type: "boolean" } },
                required: ["sure"],
              },
            }),
          },
          requestState: `refund:${orderId}`,
        });
      const state = ctx.mcpReq.requestState<string>();
      if (state !== `refund:${orderId}`) return { ...text(`Bad state: ${String(state)}`), isError: true };
      const sure = answer.kind === "elicit" && answer.action === "accept" && answer.content?.sure === true;
      return text(sure ? `Order ${orderId} refunded.` : `Refund of ${orderId} canceled.`);
    },
  );
  server.registerTool(
    "gift_order",
    {
      description: "Sends an order as a gift, with a card the model words and a note the customer writes",
      inputSchema: z.object({ orderId: z.string() }),
    },
    async ({ orderId }, ctx) => {
      const note = inputResponse(ctx.mcpReq.inputResponses, "note");
      const card = inputResponse(ctx.mcpReq.inputResponses, "card");
      if (note.kind === "missing" || card.kind === "missing")
        return inputRequired({
          inputRequests: {
            note: inputRequired.elicit({
              message: "A note for the recipient?",
              requestedSchema: { type: "object", properties: { note: { type: "string" } } },
            }),
            card: inputRequired.createMessage({
              messages: [
                { role: "user", content: { type: "text", text: `Word a gift card for ${orderId}` } },
              ],
              maxTokens: 50,
            }),
          },
        });
      const written = note.kind === "elicit" ? String(note.content?.note ?? note.action) : "?";
      const content = card.kind === "sampling" ? [card.result.content].flat()[0] : undefined;
      const worded = content?.type === "text" ? content.text : "?";
      return text(`Gift ${orderId}: card "${worded}", note "${written}".`);
    },
  );
  server.registerTool(
    "where_am_i",
    { description: "Says how many roots the client shares", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "roots");
      if (answer.kind === "missing")
        return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
      return text(answer.kind === "roots" ? `roots: ${answer.roots.length}` : "no roots answer");
    },
  );
  return server;
}

const modern = createMcpHandler(shop);
const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

/** A 2025-11-25 server with sessions: a transport (and server) per session. */
async function stateful(request: Request): Promise<Response> {
  const id = request.headers.get("mcp-session-id");
  const known = id === null ? undefined : sessions.get(id);
  if (known) return known.handleRequest(request);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    onsessionclosed: (sessionId) => void sessions.delete(sessionId),
  });
  await shop().connect(transport);
  return transport.handleRequest(request);
}

/** The sessions the stateful endpoint holds open now. */
export const openSessions = (): number => sessions.size;

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
};

/** Serves one Node request, telling `seen` about it. */
export async function serveShop(
  req: IncomingMessage,
  res: ServerResponse,
  seen: (request: Seen) => void = () => undefined,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  const body = Buffer.concat(chunks);
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const parsed: unknown = body.length > 0 ? JSON.parse(body.toString("utf8")) : undefined;
  const message = z.looseObject({ method: z.string(), params: z.unknown() }).safeParse(parsed).data;
  seen({
    what: `${req.method} ${req.method === "POST" ? (message?.method ?? "-") : url.pathname}`,
    mcpMethod: header(req, "mcp-method"),
    mcpName: header(req, "mcp-name"),
    version: header(req, "mcp-protocol-version"),
    session: header(req, "mcp-session-id"),
    params:
      message?.method === "tools/call" ? z.record(z.string(), z.unknown()).parse(message.params) : undefined,
    test: header(req, "x-test"),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === "string") headers.set(name, value);
  const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    ...(body.length > 0 ? { body } : {}),
  });
  const response =
    url.pathname === "/mcp"
      ? await modern.fetch(request)
      : url.pathname === "/stateful"
        ? await stateful(request)
        : new Response(null, { status: 404 });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) return void res.end();
  // SSE answers stream: each chunk is written as it comes.
  for await (const chunk of response.body) res.write(chunk);
  res.end();
}
