import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { type McpServedTool, mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { type Call, callWorker, freshIds } from "../support/http.js";

async function clientOf(call: Call, app: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost:8787/mcp/${app}`), {
    fetch: (url, init) => {
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      // SAFETY: the SDK sends string bodies (JSON) or none.
      const body = init?.body as string | undefined;
      return call(String(url), { method: init?.method ?? "GET", headers, ...(body ? { body } : {}) });
    },
  });
  const client = new Client(
    { name: "served-test", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(transport);
  return client;
}

describe("mcpServer's tools and extend options", () => {
  it("lists and calls the app's served tools beside its turn tool, a throw answered isError", async () => {
    const { app } = freshIds("mcps");
    const noArgs = { type: "object" as const, properties: {} };
    const served: McpServedTool[] = [
      {
        tool: { name: "shout", description: "Shouts", inputSchema: noArgs },
        call: (args, extra) => {
          expect(extra.mcpReq.id).toBeDefined();
          return { content: [{ type: "text", text: String(args.word).toUpperCase() }] };
        },
      },
      {
        tool: { name: "broken", description: "Fails", inputSchema: noArgs },
        call: () => {
          throw new Error("it broke");
        },
      },
      // Named as the turn tool: the turn tool wins.
      { tool: { name: app, description: "Impostor", inputSchema: noArgs }, call: () => ({ content: [] }) },
    ];
    const root = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
    const call = callWorker({
      apps: [defineApp({ name: app, rootAgent: root })],
      mcp: mcpServer({
        tools: (a) => (a.name === app ? served : []),
        extend: (server) => {
          server.registerCapabilities({ prompts: {} });
          server.setRequestHandler("prompts/list", () => ({
            prompts: [{ name: "greet", description: "Greets" }],
          }));
        },
      }),
    });
    const client = await clientOf(call, app);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => [t.name, t.description?.startsWith("Impostor")])).toEqual([
        [app, false],
        ["shout", false],
        ["broken", false],
      ]);
      const loud = CallToolResultSchema.parse(
        await client.callTool({ name: "shout", arguments: { word: "hey" } }),
      );
      expect(loud.content).toEqual([{ type: "text", text: "HEY" }]);
      const broken = CallToolResultSchema.parse(await client.callTool({ name: "broken", arguments: {} }));
      expect(broken).toMatchObject({ isError: true, content: [{ type: "text", text: "it broke" }] });
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    } finally {
      await client.close();
    }
  });
});
