// McpToolset inside workerd against the official v2 SDK's server (test/support/mcp-v2-server.ts, a Node
// process of the globalSetup): 2026-07-28 to its stateless endpoint, 2025-11-25 with a session to its
// stateful one, and `input_required` paused and resumed over the HTTP API.
import { describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionCallsOf, functionResponsesOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import { McpToolset, type McpToolsetConfig, mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";
import {
  type Call,
  callWorker,
  expectJson,
  freshIds,
  noSleep,
  runBody,
  sessionsOf,
} from "../support/http.js";

const origin = inject("mcpV2Origin");

interface Seen {
  what: string;
  mcpMethod?: string;
  mcpName?: string;
  version?: string;
  session?: string;
  params?: Record<string, unknown>;
}

/** An app whose one agent (the `demo:` model) has a toolset of the v2 shop; its requests are tagged. */
async function shopApp(config: McpToolsetConfig) {
  const { app, user, session } = freshIds("mcp2");
  const agent = new LlmAgent({
    name: "clerk",
    description: "Answers questions with the shop's tools.",
    model: "demo:clerk",
    tools: [new McpToolset({ ...config, headers: { "x-test": app } })],
  });
  const call = callWorker({ apps: [defineApp({ name: app, rootAgent: agent })] });
  await sessionsOf(call, app, user).create({ sessionId: session });
  const run = (newMessage: unknown) =>
    expectJson<Event[]>(
      call("/run", { method: "POST", json: { ...runBody(app, user, session, ""), newMessage } }),
      200,
    );
  const turn = (text: string) => run({ role: "user", parts: [{ text }] });
  const seen = async () => (await fetch(`${origin}/seen?test=${app}`)).json() as Promise<Seen[]>;
  return { run, turn, seen };
}

const responsesOf = (events: readonly Event[]) => events.flatMap((e) => functionResponsesOf(e.content));

describe("McpToolset in workerd, against the v2 SDK's server", () => {
  it("speaks 2026-07-28 to its stateless endpoint: server/discover, no initialize, no session, the headers", async () => {
    const { turn, seen } = await shopApp({ url: `${origin}/mcp`, toolFilter: ["lookup_order"] });
    const events = await turn("Lookup order 4711 please");
    expect(responsesOf(events).map((r) => r.response.structuredContent)).toEqual([
      { orderId: "4711", status: "shipped" },
    ]);
    const requests = await seen();
    expect(requests.map((s) => s.what)).toEqual([
      "POST server/discover",
      "POST tools/list",
      "POST tools/call",
    ]);
    expect(requests.every((s) => s.version === "2026-07-28" && s.session === undefined)).toBe(true);
    expect(requests.at(-1)).toMatchObject({ mcpMethod: "tools/call", mcpName: "lookup_order" });
  });

  it("speaks 2025-11-25 with a session to its stateful endpoint and ends the session", async () => {
    const { turn, seen } = await shopApp({ url: `${origin}/stateful`, toolFilter: ["lookup_order"] });
    const events = await turn("Lookup order 4712 please");
    expect(responsesOf(events)[0]?.response).toMatchObject({ structuredContent: { orderId: "4712" } });
    const whats = (await seen()).map((s) => s.what);
    expect(whats.filter((w) => w === "POST initialize")).toHaveLength(1);
    expect(whats.filter((w) => w === "DELETE /stateful")).toHaveLength(1);
  });

  it("pauses on input_required and retries with the user's answer on the next /run", async () => {
    const { turn, run, seen } = await shopApp({ url: `${origin}/mcp`, toolFilter: ["refund_order"] });
    const paused = await turn("Refund order 4713");
    const request = paused
      .flatMap((e) => functionCallsOf(e.content))
      .find((c) => c.name === "adk_request_confirmation");
    expect(request?.args).toMatchObject({
      originalFunctionCall: { name: "refund_order" },
      toolConfirmation: { hint: expect.stringContaining("Refund order"), confirmed: false },
    });
    const resumed = await run({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: request?.id,
            name: "adk_request_confirmation",
            response: { confirmed: true, payload: { sure: true } },
          },
        },
      ],
    });
    expect(JSON.stringify(responsesOf(resumed)[0]?.response.content)).toMatch(
      /"text":"Order \S+ refunded\."/,
    );
    const retry = (await seen()).filter((s) => s.what === "POST tools/call").at(-1);
    expect(retry?.params).toMatchObject({
      inputResponses: { confirm: { action: "accept", content: { sure: true } } },
      requestState: expect.stringMatching(/^refund:/),
    });
  });
});

describe("Baton to Baton over MCP 2026-07-28 within one Worker", () => {
  it("a confirmation the called app waits for pauses the calling turn, and the user's answer resumes both", async () => {
    const paid: number[] = [];
    const pay = functionTool({
      name: "pay",
      description: "Pays an amount",
      parameters: z.object({ amount: z.number() }),
      execute: ({ amount }) => {
        paid.push(amount);
        return { status: "paid" };
      },
      requireConfirmation: true,
    });
    const ids = freshIds("b2b");
    const cashierApp = `cashier-${ids.id}`;
    const cashier = new LlmAgent({
      name: "cashier",
      model: scriptedModel([
        { calls: [{ name: "pay", args: { amount: 9 }, id: "c9" }] },
        { text: "Paid 9." },
      ]),
      tools: [pay],
    });
    let call: Call | undefined;
    // The calling app reaches the other through this Worker itself (its own host, decision 048).
    const fetchWorker: typeof fetch = async (input, init) => {
      if (call === undefined) throw new Error("the worker is not built yet");
      const request = new Request(input, init);
      const headers = Object.fromEntries(request.headers.entries());
      const body = request.method === "POST" ? await request.text() : undefined;
      return call(new URL(request.url).pathname, {
        method: request.method,
        headers,
        ...(body ? { body } : {}),
      });
    };
    const front = new LlmAgent({
      name: "front",
      model: scriptedModel([
        { calls: [{ name: cashierApp, args: { message: "pay 9" }, id: "m1" }] },
        { text: "The cashier paid 9." },
      ]),
      tools: [new McpToolset({ url: `http://baton.test/mcp/${cashierApp}` })],
    });
    call = callWorker(
      {
        apps: [
          defineApp({ name: ids.app, rootAgent: front }),
          defineApp({ name: cashierApp, rootAgent: cashier }),
        ],
        services: { sleep: noSleep, fetch: fetchWorker },
        mcp: mcpServer(),
      },
      { ALLOWED_HOSTS: "baton.test" },
    );
    await sessionsOf(call, ids.app, ids.user).create({ sessionId: ids.session });
    const run = (newMessage: unknown) =>
      expectJson<Event[]>(
        (call as Call)("/run", {
          method: "POST",
          json: { ...runBody(ids.app, ids.user, ids.session, ""), newMessage },
        }),
        200,
      );
    const paused = await run({ role: "user", parts: [{ text: "pay 9 at the cashier" }] });
    const request = paused
      .flatMap((e) => functionCallsOf(e.content))
      .find((c) => c.name === "adk_request_confirmation");
    expect(JSON.stringify(request?.args)).toContain("pay");
    expect(paid).toEqual([]);
    const resumed = await run({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: request?.id,
            name: "adk_request_confirmation",
            response: { confirmed: true, payload: { confirmed: true } },
          },
        },
      ],
    });
    expect(paid).toEqual([9]);
    expect(JSON.stringify(responsesOf(resumed)[0]?.response.content)).toContain("Paid 9.");
    expect(resumed.at(-1)?.content?.parts?.[0]?.text).toBe("The cashier paid 9.");
  });
});
