import { describe, expect, inject, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionCallsOf, functionResponsesOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import type { AdkSpan } from "../../../src/devtools/trace-view.js";
import { McpToolset, type McpToolsetConfig } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { type Call, callWorker, expectJson, freshIds, runBody, sessionsOf } from "../support/http.js";

const origin = inject("mcpServerOrigin");

/** An app whose one agent (the scripted `demo:` model) has the given MCP toolset. */
async function mcpApp(config: McpToolsetConfig) {
  const { app, user, session } = freshIds("mcp");
  const agent = new LlmAgent({
    name: "clerk",
    description: "Answers questions with the shop's tools.",
    model: "demo:clerk",
    tools: [new McpToolset(config)],
  });
  const call = callWorker({ apps: [defineApp({ name: app, rootAgent: agent })] });
  await sessionsOf(call, app, user).create({ sessionId: session });
  const turn = (text: string) =>
    expectJson<Event[]>(call("/run", { method: "POST", json: runBody(app, user, session, text) }), 200);
  return { app, user, session, call, turn };
}

const callsOf = (events: readonly Event[]) => events.flatMap((e) => functionCallsOf(e.content));
const responsesOf = (events: readonly Event[]) => events.flatMap((e) => functionResponsesOf(e.content));

async function spans(call: Call, app: string, session: string): Promise<AdkSpan[]> {
  return expectJson<AdkSpan[]>(call(`/dev/apps/${app}/debug/trace/session/${session}`), 200);
}

describe("McpToolset in workerd, against real MCP servers", () => {
  it("calls a filtered, prefixed tool of the official SDK's server and stores the call and its result as ADK shapes it", async () => {
    const { app, user, session, call, turn } = await mcpApp({
      url: `${origin}/mcp`,
      toolFilter: ["lookup_order"],
      toolNamePrefix: "shop",
    });
    const events = await turn("Lookup order 4711 please");
    expect(callsOf(events).map((c) => [c.name, c.args])).toEqual([
      ["shop_lookup_order", { orderId: "4711" }],
    ]);
    expect(responsesOf(events).map((r) => [r.name, r.response])).toEqual([
      [
        "shop_lookup_order",
        {
          content: [{ type: "text", text: "Order 4711 has shipped." }],
          structuredContent: { orderId: "4711", status: "shipped" },
          isError: false,
        },
      ],
    ]);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toContain("shop_lookup_order returned");
    const stored = await expectJson<Session>(call(`/apps/${app}/users/${user}/sessions/${session}`), 200);
    expect(responsesOf(stored.events).map((r) => r.name)).toEqual(["shop_lookup_order"]);

    // cancel_order is filtered out: the model is never offered it, so nothing calls it.
    const cancel = await turn("Cancel 4711");
    expect(callsOf(cancel)).toEqual([]);
  });

  it("calls the registry's everything server's echo tool through the filter and prefix", async () => {
    const { turn } = await mcpApp({
      connectionParams: { url: inject("everythingMcpUrl"), timeout: 10 },
      toolFilter: ["echo"],
      toolNamePrefix: "ev",
    });
    const events = await turn("echo this message: ping 42");
    expect(callsOf(events).map((c) => c.name)).toEqual(["ev_echo"]);
    const [response] = responsesOf(events);
    expect(response?.response).toEqual({
      content: [{ type: "text", text: "Echo: echo this message: ping 42" }],
      isError: false,
    });
  });

  it("answers an error function response when the server is stopped mid-session, and the next turn still works", async () => {
    const stoppable = inject("stoppableMcpOrigin");
    const { app, session, call, turn } = await mcpApp({
      url: `${stoppable}/mcp`,
      toolFilter: ["lookup_order"],
    });
    const first = await turn("Lookup order 1212");
    expect(responsesOf(first)[0]?.response).toMatchObject({ isError: false });

    expect((await fetch(`${stoppable}/exit`, { method: "POST" })).status).toBe(204);
    const second = await turn("Lookup order 1313");
    const [failed] = responsesOf(second);
    expect(failed?.name).toBe("lookup_order");
    expect(String(failed?.response.error)).toMatch(
      /^MCP_UNAVAILABLE: The MCP server at http:\/\/127\.0\.0\.1:\d+\/mcp/,
    );
    expect(second.every((e) => e.errorCode === undefined)).toBe(true);
    expect(second.at(-1)?.content?.parts?.[0]?.text).toContain("lookup_order returned error");

    const third = await turn("Hello again");
    expect(third.map((e) => [e.author, e.errorCode])).toEqual([["clerk", undefined]]);
    const coded = (await spans(call, app, session)).filter(
      (s) => s.attributes["baton.error.code"] !== undefined,
    );
    expect(coded.map((s) => [s.name, s.attributes["baton.error.code"]])).toEqual([
      ["mcp tools/call lookup_order", "MCP_UNAVAILABLE"],
    ]);
  });

  it("answers MCP_TIMEOUT when a call takes longer than the toolset allows", async () => {
    const { turn } = await mcpApp({
      connectionParams: { url: `${origin}/mcp`, sseReadTimeout: 0.3 },
      toolFilter: ["wait_forever"],
    });
    const events = await turn("Wait forever for a slot: tomorrow");
    expect(String(responsesOf(events)[0]?.response.error)).toMatch(/^MCP_TIMEOUT: /);
    expect(events.every((e) => e.errorCode === undefined)).toBe(true);
  });

  it("answers MCP_PROTOCOL_ERROR when the server answers a call with something that is not MCP", async () => {
    const { turn } = await mcpApp({ url: `${origin}/half-broken`, toolFilter: ["lookup_order"] });
    const events = await turn("Lookup order 9999");
    expect(String(responsesOf(events)[0]?.response.error)).toMatch(/^MCP_PROTOCOL_ERROR: /);
  });

  it("falls back to the older HTTP+SSE transport when the server refuses Streamable HTTP with a 4xx", async () => {
    const { turn } = await mcpApp({ url: `${origin}/legacy`, toolFilter: ["lookup_order"] });
    const events = await turn("Lookup order 5512");
    expect(responsesOf(events)[0]?.response).toMatchObject({
      structuredContent: { orderId: "5512", status: "shipped" },
    });
  });

  it("sends static headers and the per-invocation provider's headers, the provider's winning", async () => {
    const { user, turn } = await mcpApp({
      url: `${origin}/mcp`,
      headers: { "x-customer": "static" },
      headerProvider: (ctx) => ({ "x-customer": `user-${ctx.invocation.session.userId}` }),
      toolFilter: ["whoami"],
    });
    const events = await turn("whoami");
    expect(responsesOf(events)[0]?.response.content).toEqual([
      { type: "text", text: `customer=user-${user}` },
    ]);
  });

  it("offers no MCP tools, without failing the turn, when the server cannot be listed", async () => {
    const { app, session, call, turn } = await mcpApp({ url: "http://127.0.0.1:9/mcp" });
    const events = await turn("Lookup order 1");
    expect(events.map((e) => [e.author, e.errorCode])).toEqual([["clerk", undefined]]);
    const coded = (await spans(call, app, session)).filter(
      (s) => s.attributes["baton.error.code"] !== undefined,
    );
    expect(coded.map((s) => [s.name, s.attributes["baton.error.code"]])).toEqual([
      ["mcp tools/list", "MCP_UNAVAILABLE"],
    ]);
  });
});
