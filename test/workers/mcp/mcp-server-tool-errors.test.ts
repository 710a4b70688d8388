import {
  ProtocolError,
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from "@modelcontextprotocol/client";
import { CfWorkerJsonSchemaValidator as V2Validator } from "@modelcontextprotocol/client/validators/cf-worker";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { mcpFailure } from "../../../src/mcp/client/mcp-failure.js";
import { mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { type Call, callWorker, freshIds } from "../support/http.js";

/** The official SDK's client talking to a Worker through `call` (no network). */
async function clientOf(call: Call, app: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://baton.test/mcp/${app}`), {
    fetch: (url, init) => {
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      // SAFETY: the SDK sends string bodies (JSON) or none.
      const body = init?.body as string | undefined;
      const path = new URL(String(url)).pathname;
      return call(path, { method: init?.method ?? "GET", headers, ...(body ? { body } : {}) });
    },
  });
  const client = new Client(
    { name: "errors-test", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(transport);
  return client;
}

/** The v2 SDK's client (what McpToolset runs on), negotiating as McpToolset does, through `call`. */
async function v2ClientOf(call: Call, app: string): Promise<V2Client> {
  const transport = new V2Transport(new URL(`http://baton.test/mcp/${app}`), {
    fetch: (url, init) => {
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      // SAFETY: the SDK sends string bodies (JSON) or none.
      const body = init?.body as string | undefined;
      const path = new URL(String(url)).pathname;
      return call(path, { method: init?.method ?? "GET", headers, ...(body ? { body } : {}) });
    },
  });
  const client = new V2Client(
    { name: "errors-test", version: "2.0.0" },
    { jsonSchemaValidator: new V2Validator(), versionNegotiation: { mode: "auto" } },
  );
  await client.connect(transport);
  return client;
}

function helper() {
  const { app } = freshIds("mcpe");
  const root = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
  // The tests' Worker is reached as http://baton.test: a host of its own (decision 048).
  const options = { apps: [defineApp({ name: app, rootAgent: root })], mcp: mcpServer() };
  return { app, call: callWorker(options, { ALLOWED_HOSTS: "baton.test" }) };
}

describe("/mcp/<app> tool errors by the spec (2025-11-25)", () => {
  it("answers invalid arguments with an isError result naming what is wrong, not a JSON-RPC error", async () => {
    const { app, call } = helper();
    const client = await clientOf(call, app);
    try {
      const wrongType = CallToolResultSchema.parse(
        await client.callTool({ name: app, arguments: { message: 42 } }),
      );
      expect(wrongType.isError).toBe(true);
      const [block] = wrongType.content;
      expect(block?.type).toBe("text");
      const text = block?.type === "text" ? block.text : "";
      expect(text).toMatch(/^Invalid arguments: /);
      expect(text).toContain("message");
      expect(text).toMatch(/string/);

      const extra = CallToolResultSchema.parse(
        await client.callTool({ name: app, arguments: { message: "hi", colour: "red" } }),
      );
      expect(extra.isError).toBe(true);
      expect(JSON.stringify(extra.content)).toContain("colour");

      const missing = CallToolResultSchema.parse(await client.callTool({ name: app, arguments: {} }));
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("answers an unknown tool with a -32602 JSON-RPC error whose message carries one prefix", async () => {
    const { app, call } = helper();
    const client = await clientOf(call, app);
    try {
      const failure = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({ code: -32602 });
      expect(String((failure as Error).message)).toBe("MCP error -32602: Unknown tool: no_such_tool");
    } finally {
      await client.close();
    }
    // What McpToolset (the v2 client, 2026-07-28 here) makes of such an error says the prefix once too.
    const v2 = await v2ClientOf(call, app);
    try {
      const failure = await v2.callTool({ name: "no_such_tool", arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ProtocolError);
      const coded = mcpFailure(failure, "http://baton.test/mcp", "tools/call no_such_tool");
      expect(coded.code).toBe("MCP_PROTOCOL_ERROR");
      expect(coded.message.match(/-32602/g)).toHaveLength(1);
    } finally {
      await v2.close();
    }
  });

  it("says a doubled prefix from another server once, in McpToolset's error", async () => {
    // A server on an SDK's error class sends "MCP error -32602: bad", and the client prefixes it again.
    const doubled = new ProtocolError(-32602, "MCP error -32602: MCP error -32602: bad");
    const coded = mcpFailure(doubled, "http://x.test/mcp", "tools/call t");
    expect(coded.code).toBe("MCP_PROTOCOL_ERROR");
    expect(coded.message).toBe(
      "The MCP server at http://x.test/mcp answered tools/call t with an error: MCP error -32602: bad",
    );
  });
});
