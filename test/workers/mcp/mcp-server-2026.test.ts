import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";
import { type Call, callWorker, freshIds, noSleep } from "../support/http.js";

/** The v2 SDK's client on `/mcp/<app>` through `call`, speaking 2026-07-28 (pinned) or negotiating. */
async function v2Client(
  call: Call,
  app: string,
  options: {
    pin?: boolean;
    elicit?: (message: string) => Record<string, string | number | boolean> | undefined;
  } = {},
) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost:8787/mcp/${app}`), {
    fetch: (url, init) => {
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      // SAFETY: the SDK sends string bodies (JSON) or none.
      const body = init?.body as string | undefined;
      return call(String(url), { method: init?.method ?? "GET", headers, ...(body ? { body } : {}) });
    },
  });
  const client = new Client(
    { name: "v2-test", version: "1.0.0" },
    {
      capabilities: options.elicit ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: options.pin === false ? "auto" : { pin: "2026-07-28" } },
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  const elicit = options.elicit;
  if (elicit)
    client.setRequestHandler("elicitation/create", (request) => {
      const content = elicit(request.params.message);
      return content === undefined ? { action: "decline" } : { action: "accept", content };
    });
  await client.connect(transport);
  return client;
}

const textOf = (result: { content?: unknown }) =>
  (result.content as { type: string; text?: string }[] | undefined)?.map((c) => c.text ?? "").join("");

describe("/mcp/<app> under MCP 2026-07-28, with the v2 SDK's client", () => {
  it("negotiates 2026-07-28 (server/discover) and runs a turn, with no session or initialize", async () => {
    const ids = freshIds("mcp26");
    const root = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
    const call = callWorker({ apps: [defineApp({ name: ids.app, rootAgent: root })], mcp: mcpServer() });
    const client = await v2Client(call, ids.app, { pin: false });
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([ids.app]);
      const result = await client.callTool({ name: ids.app, arguments: { message: "hello" } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ sessionId: expect.any(String) });
    } finally {
      await client.close();
    }
  });

  it("refuses a tools/call whose Mcp-Name header names another tool (400)", async () => {
    const ids = freshIds("mcp26h");
    const root = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
    const call = callWorker({ apps: [defineApp({ name: ids.app, rootAgent: root })], mcp: mcpServer() });
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const send = (name: string) =>
      call(`http://localhost:8787/mcp/${ids.app}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": name,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: ids.app, arguments: { message: "hi" }, _meta: meta },
        }),
      });
    const wrong = await send("another_tool");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ id: 7, error: { code: expect.any(Number) } });
    expect((await send(ids.app)).status).toBe(200);
  });

  it("answers input_required when the turn pauses on a tool confirmation; the retry resumes the same turn", async () => {
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
    const model = scriptedModel([
      { calls: [{ name: "pay", args: { amount: 9 }, id: "c9" }] },
      { text: "Paid 9." },
    ]);
    const ids = freshIds("mcp26c");
    const call = callWorker({
      apps: [defineApp({ name: ids.app, rootAgent: new LlmAgent({ name: "cashier", model, tools: [pay] }) })],
      services: { sleep: noSleep },
      mcp: mcpServer(),
    });
    const asked: string[] = [];
    const client = await v2Client(call, ids.app, {
      elicit: (message) => {
        asked.push(message);
        return { confirmed: true };
      },
    });
    try {
      const result = await client.callTool({ name: ids.app, arguments: { message: "pay 9" } });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/pay/);
      expect(paid).toEqual([9]);
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe("Paid 9.");
    } finally {
      await client.close();
    }
  });

  it("a declined confirmation resumes the turn with the call rejected", async () => {
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
    const model = scriptedModel([
      { calls: [{ name: "pay", args: { amount: 5 }, id: "c5" }] },
      { text: "Not paid." },
    ]);
    const ids = freshIds("mcp26d");
    const call = callWorker({
      apps: [defineApp({ name: ids.app, rootAgent: new LlmAgent({ name: "cashier", model, tools: [pay] }) })],
      services: { sleep: noSleep },
      mcp: mcpServer(),
    });
    const client = await v2Client(call, ids.app, { elicit: () => undefined });
    try {
      const result = await client.callTool({ name: ids.app, arguments: { message: "pay 5" } });
      expect(paid).toEqual([]);
      expect(textOf(result)).toBe("Not paid.");
    } finally {
      await client.close();
    }
  });
});
