// McpToolset against the official v2 SDK's server (@modelcontextprotocol/server 2.4) on 127.0.0.1: 2026-07-28
// to its stateless endpoint (server/discover, no initialize, no session, the Mcp-Method/Mcp-Name headers),
// 2025-11-25 with a session to its stateful one, and `input_required` paused as adk_request_confirmation.
import { beforeEach, describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionCallsOf, functionResponsesOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import { McpToolset } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { openSessions, type Seen, serveShop } from "../../support/mcp-v2-shop.js";
import { collect, testServices, text } from "../../unit/support/run-helpers.js";
import { type Reply, scriptedModel } from "../../unit/support/scripted-model.js";
import { localServer } from "../support/local-server.js";

let seen: Seen[] = [];
beforeEach(() => {
  seen = [];
});
/** How many of the next requests to answer 503 (a server that is briefly down), and what they asked. */
let failNext = 0;
let refused: string[] = [];
const { origin } = localServer(async (req, res) => {
  if (failNext > 0) {
    failNext -= 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk));
    refused.push(String(JSON.parse(Buffer.concat(chunks).toString("utf8")).method));
    return void res.writeHead(503).end();
  }
  return serveShop(req, res, (s) => seen.push(s));
});

const whats = () => seen.map((s) => s.what);
const count = (what: string) => whats().filter((w) => w === what).length;

/** An app whose scripted model replies `script`, with one toolset of the shop at `path`. */
async function shopApp(path: string, script: Reply[]) {
  const services = { ...testServices(), fetch: globalThis.fetch };
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const model = scriptedModel(script);
  const toolset = new McpToolset({ url: `${origin()}${path}`, toolListTtl: 0 });
  const rootAgent = new LlmAgent({ name: "clerk", model, tools: [toolset] });
  const runner = new Runner({ app: defineApp({ name: "shop", rootAgent }), sessionStore: store, services });
  await store.createSession({ appName: "shop", userId: "u", sessionId: "s" });
  const turn = (said: string) => collect(runner, { userId: "u", sessionId: "s", newMessage: text(said) });
  const answer = (id: string | undefined, response: Record<string, unknown>) =>
    collect(runner, {
      userId: "u",
      sessionId: "s",
      newMessage: {
        role: "user",
        parts: [{ functionResponse: { id, name: "adk_request_confirmation", response } }],
      },
    });
  return { turn, answer, model };
}

const responses = (events: readonly Event[]) => events.flatMap((e) => functionResponsesOf(e.content));
const lookups: Reply[] = [
  {
    calls: [
      { name: "lookup_order", args: { orderId: "1" } },
      { name: "lookup_order", args: { orderId: "2" } },
    ],
  },
  { calls: [{ name: "lookup_order", args: { orderId: "3" } }] },
  { text: "All shipped." },
];

describe("McpToolset against the v2 SDK's server", () => {
  it("speaks 2026-07-28 to a server that does: one probe, no initialize, no session, the required headers", async () => {
    const { turn } = await shopApp("/mcp", lookups);
    const events = await turn("orders 1 to 3");
    expect(responses(events).map((r) => r.response.structuredContent)).toEqual(
      ["1", "2", "3"].map((orderId) => ({ orderId, status: "shipped" })),
    );
    expect(whats()).toEqual([
      "POST server/discover",
      "POST tools/list",
      "POST tools/call",
      "POST tools/call",
      "POST tools/list",
      "POST tools/call",
      "POST tools/list",
    ]);
    expect(seen.every((s) => s.version === "2026-07-28" && s.session === undefined)).toBe(true);
    expect(seen.map((s) => s.mcpMethod)).toEqual(whats().map((w) => w.replace("POST ", "")));
    const calls = seen.filter((s) => s.what === "POST tools/call");
    expect(calls.map((s) => s.mcpName)).toEqual(["lookup_order", "lookup_order", "lookup_order"]);
  });

  it("skips the probe on the next turn: the server's server/discover answer is remembered", async () => {
    const { turn } = await shopApp("/mcp", [...lookups, ...lookups]);
    await turn("orders 1 to 3");
    seen = [];
    await turn("orders 1 to 3 again");
    expect(count("POST server/discover")).toBe(0);
    expect(count("POST tools/call")).toBe(3);
    expect(seen.every((s) => s.version === "2026-07-28")).toBe(true);
  });

  it("goes straight to initialize on the next turn to a 2025-11-25 server", async () => {
    const { turn } = await shopApp("/stateful", [...lookups, ...lookups]);
    await turn("orders 1 to 3");
    seen = [];
    await turn("orders 1 to 3 again");
    expect(whats()[0]).toBe("POST initialize");
    expect(count("POST server/discover")).toBe(0);
    expect(count("DELETE /stateful")).toBe(1);
  });

  it("probes again once a remembered 2026-07-28 server answered with an HTTP error", async () => {
    const { turn } = await shopApp("/mcp", [...lookups, ...lookups]);
    await turn("orders 1 to 3");
    [failNext, refused, seen] = [1, [], []];
    await turn("orders 1 to 3 again");
    // The turn's first request is a listing with the remembered verdict (no probe); refused, it is
    // forgotten, and the next connection probes.
    expect(refused).toEqual(["tools/list"]);
    expect(whats()[0]).toBe("POST server/discover");
    expect(count("POST tools/call")).toBe(3);
  });

  it("speaks 2025-11-25 with a session to a server that has no 2026-07-28, and ends the session", async () => {
    const { turn } = await shopApp("/stateful", lookups);
    const events = await turn("orders 1 to 3");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("All shipped.");
    expect(count("POST server/discover")).toBe(1);
    expect(count("POST initialize")).toBe(1);
    expect(count("POST tools/list")).toBe(3);
    expect(count("POST tools/call")).toBe(3);
    expect(count("DELETE /stateful")).toBe(1);
    expect(openSessions()).toBe(0);
    const after = seen.filter((s) => s.what === "POST tools/call");
    expect(after.every((s) => s.version === "2025-11-25" && s.session !== undefined)).toBe(true);
  });

  it("pauses the turn on input_required, and the user's answer retries the call with it and the server's state", async () => {
    const { turn, answer, model } = await shopApp("/mcp", [
      { calls: [{ name: "refund_order", args: { orderId: "7" }, id: "r1" }] },
      { text: "Refunded." },
    ]);
    const paused = await turn("refund order 7");
    const request = paused
      .flatMap((e) => functionCallsOf(e.content))
      .find((c) => c.name === "adk_request_confirmation");
    expect(request?.args).toMatchObject({
      originalFunctionCall: { id: "r1", name: "refund_order", args: { orderId: "7" } },
      toolConfirmation: { hint: expect.stringContaining("confirm: Refund order 7?"), confirmed: false },
    });
    expect(paused.find((e) => e.longRunningToolIds?.includes(request?.id ?? ""))).toBeDefined();
    expect(model.calls).toHaveLength(1);

    seen = [];
    const resumed = await answer(request?.id, { confirmed: true, payload: { sure: true } });
    expect(responses(resumed).map((r) => [r.name, r.response.content])).toEqual([
      ["refund_order", [{ type: "text", text: "Order 7 refunded." }]],
    ]);
    const retry = seen.find((s) => s.what === "POST tools/call");
    expect(retry?.params).toMatchObject({
      name: "refund_order",
      inputResponses: { confirm: { action: "accept", content: { sure: true } } },
      requestState: "refund:7",
    });
    expect(resumed.at(-1)?.content?.parts?.[0]?.text).toBe("Refunded.");
  });

  it("retries with a declined elicitation when the user rejects", async () => {
    const { turn, answer } = await shopApp("/mcp", [
      { calls: [{ name: "refund_order", args: { orderId: "8" }, id: "r2" }] },
      { text: "Not refunded." },
    ]);
    const paused = await turn("refund order 8");
    const request = paused
      .flatMap((e) => functionCallsOf(e.content))
      .find((c) => c.name === "adk_request_confirmation");
    const resumed = await answer(request?.id, { confirmed: false });
    expect(responses(resumed).map((r) => r.response.content)).toEqual([
      [{ type: "text", text: "Refund of 8 canceled." }],
    ]);
  });

  it("answers several requests by key (an elicitation and a sampling request the user words)", async () => {
    const { turn, answer } = await shopApp("/mcp", [
      { calls: [{ name: "gift_order", args: { orderId: "9" }, id: "g1" }] },
      { text: "Sent." },
    ]);
    const paused = await turn("gift order 9");
    const request = paused
      .flatMap((e) => functionCallsOf(e.content))
      .find((c) => c.name === "adk_request_confirmation");
    expect(
      String(request?.args?.toolConfirmation && JSON.stringify(request.args.toolConfirmation)),
    ).toContain("card (a model reply): Word a gift card for 9");
    seen = [];
    const resumed = await answer(request?.id, {
      confirmed: true,
      payload: { note: { note: "Enjoy" }, card: "Happy birthday" },
    });
    expect(responses(resumed).map((r) => r.response.content)).toEqual([
      [{ type: "text", text: 'Gift 9: card "Happy birthday", note "Enjoy".' }],
    ]);
    const retry = seen.find((s) => s.what === "POST tools/call");
    expect(retry?.params?.requestState).toBeUndefined();
    expect(retry?.params?.inputResponses).toMatchObject({
      card: { role: "assistant", content: { type: "text", text: "Happy birthday" }, model: "baton-user" },
    });
  });

  it("does not retry when the user declines a sampling request: the model reads why", async () => {
    const { turn, answer } = await shopApp("/mcp", [
      { calls: [{ name: "gift_order", args: { orderId: "10" }, id: "g2" }] },
      { text: "Not sent." },
    ]);
    const paused = await turn("gift order 10");
    const request = paused
      .flatMap((e) => functionCallsOf(e.content))
      .find((c) => c.name === "adk_request_confirmation");
    seen = [];
    const resumed = await answer(request?.id, { confirmed: false });
    expect(responses(resumed).map((r) => r.response)).toEqual([
      { error: "The user gave no answer to card (sampling/createMessage)." },
    ]);
    expect(count("POST tools/call")).toBe(0);
  });

  it("answers a roots request itself (Baton shares no roots) without pausing the turn", async () => {
    const { turn } = await shopApp("/mcp", [
      { calls: [{ name: "where_am_i", args: {} }] },
      { text: "Done." },
    ]);
    const events = await turn("where am I");
    expect(responses(events).map((r) => r.response.content)).toEqual([[{ type: "text", text: "roots: 0" }]]);
    const calls = seen.filter((s) => s.what === "POST tools/call");
    expect(calls.map((s) => s.params?.inputResponses)).toEqual([undefined, { roots: { roots: [] } }]);
  });
});
