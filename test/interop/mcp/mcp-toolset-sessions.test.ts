// McpToolset's connections, counted by a real MCP server (the official SDK's) on 127.0.0.1: one connection
// per server per turn, shared by the listing and the calls, its session ended when the turn ends.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionResponsesOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import { McpToolset } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { collect, testServices, text } from "../../unit/support/run-helpers.js";
import { type Reply, scriptedModel } from "../../unit/support/scripted-model.js";
import { localServer } from "../support/local-server.js";

/** What the server saw: each HTTP request as "METHOD rpc-method", and the sessions it opened and ended. */
const seen = { requests: [] as string[], opened: 0, ended: 0 };
beforeEach(() => {
  seen.requests = [];
  seen.opened = 0;
  seen.ended = 0;
});

function shop(): McpServer {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  server.registerTool(
    "lookup_order",
    { description: "Looks up an order", inputSchema: { orderId: z.string() } },
    async ({ orderId }) => ({ content: [{ type: "text", text: `Order ${orderId} has shipped.` }] }),
  );
  return server;
}

const readJson = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
};

const rpcMethod = (body: unknown): string =>
  typeof body === "object" && body !== null && "method" in body ? String(body.method) : "-";

const stateful = new Map<string, StreamableHTTPServerTransport>();

/**
 *   /stateful   sessions (Mcp-Session-Id), GET streams and DELETE, a transport per session
 *   /stateless  no sessions: a server per POST, GET and DELETE answered 405
 *   /oauth      401 to everything, with a WWW-Authenticate challenge (and 405s to GET, as an older
 *               server's SSE endpoint would not: a GET here means an HTTP+SSE fallback was tried)
 */
const { origin } = localServer(async (req, res: ServerResponse) => {
  const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
  const body = req.method === "POST" ? await readJson(req) : undefined;
  seen.requests.push(`${req.method} ${req.method === "POST" ? rpcMethod(body) : path}`);
  if (path === "/oauth") {
    res.writeHead(401, { "www-authenticate": 'Bearer realm="shop"' }).end();
    return;
  }
  if (path === "/stateless") {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const transport = new StreamableHTTPServerTransport({});
    const server = shop();
    res.on("close", () => void server.close());
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
  }
  const id = req.headers["mcp-session-id"];
  const known = typeof id === "string" ? stateful.get(id) : undefined;
  if (known) return known.handleRequest(req, res, body);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (sessionId) => {
      seen.opened += 1;
      stateful.set(sessionId, transport);
    },
    onsessionclosed: (sessionId) => {
      seen.ended += 1;
      stateful.delete(sessionId);
    },
  });
  await shop().connect(transport);
  return transport.handleRequest(req, res, body);
});

/** One turn of an agent with the toolset, whose model calls lookup_order twice in one step and once more. */
async function turn(path: string): Promise<{ events: Event[]; offered: string[][] }> {
  const services = { ...testServices(), fetch: globalThis.fetch };
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const script: Reply[] = [
    {
      calls: [
        { name: "lookup_order", args: { orderId: "1" } },
        { name: "lookup_order", args: { orderId: "2" } },
      ],
    },
    { calls: [{ name: "lookup_order", args: { orderId: "3" } }] },
    { text: "All shipped." },
  ];
  const model = scriptedModel(script);
  // toolListTtl 0: the tools are listed at every one of the three model steps.
  const toolset = new McpToolset({ url: `${origin()}${path}`, toolListTtl: 0 });
  const rootAgent = new LlmAgent({ name: "clerk", model, tools: [toolset] });
  const runner = new Runner({ app: defineApp({ name: "shop", rootAgent }), sessionStore: store, services });
  await store.createSession({ appName: "shop", userId: "u", sessionId: "s" });
  const events = await collect(runner, { userId: "u", sessionId: "s", newMessage: text("orders 1 to 3") });
  const offered = model.calls.map((call) => (call.tools ?? []).map((tool) => tool.name));
  return { events, offered };
}

const count = (requests: readonly string[], what: string) => requests.filter((r) => r === what).length;

describe("McpToolset's connections to a real MCP server (the official SDK's)", () => {
  it("opens one session for a turn's three listings and three calls, and ends it when the turn ends", async () => {
    const { events } = await turn("/stateful");
    const answers = events.flatMap((e) => functionResponsesOf(e.content)).map((r) => r.response);
    expect(answers.map((r) => JSON.stringify(r.content))).toEqual(
      ["1", "2", "3"].map((n) => JSON.stringify([{ type: "text", text: `Order ${n} has shipped.` }])),
    );
    expect([seen.opened, seen.ended]).toEqual([1, 1]);
    expect(stateful.size).toBe(0);
    const { requests } = seen;
    // The v1 server does not know 2026-07-28: the probe is answered with an error, and the client initializes.
    expect(count(requests, "POST server/discover")).toBe(1);
    expect(count(requests, "POST initialize")).toBe(1);
    expect(count(requests, "POST notifications/initialized")).toBe(1);
    expect(count(requests, "POST tools/list")).toBe(3);
    expect(count(requests, "POST tools/call")).toBe(3);
    expect(count(requests, "DELETE /stateful")).toBe(1);
    // the probe, initialize, initialized, the GET stream, 3 listings, 3 calls, the DELETE.
    expect(requests).toHaveLength(11);
  });

  it("ends nothing on a stateless server, and still connects once for the turn", async () => {
    const { events } = await turn("/stateless");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("All shipped.");
    const { requests } = seen;
    expect(count(requests, "POST initialize")).toBe(1);
    expect(count(requests, "POST tools/call")).toBe(3);
    expect(count(requests, "DELETE /stateless")).toBe(0);
    expect(requests).toHaveLength(10);
  });

  it("takes a 401 as the answer: no HTTP+SSE fallback, and the model is offered no tools", async () => {
    const { offered } = await turn("/oauth");
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.every((names) => names.length === 0)).toBe(true);
    expect(seen.requests.filter((r) => r.startsWith("GET"))).toEqual([]);
    // The server/discover probe is refused with 401: no initialize, no GET, no HTTP+SSE attempt.
    expect(seen.requests.every((r) => r === "POST server/discover")).toBe(true);
  });
});
