import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../../src/core/session.js";
import { type DemoWorker, startDemoWorker } from "../../support/demo-worker.js";

const TOKEN = "interop-mcp-token";
let worker: DemoWorker;

beforeAll(async () => {
  worker = await startDemoWorker({ API_TOKENS: TOKEN });
}, 120_000);
afterAll(async () => worker?.dispose());

/** The official SDK's client on `/mcp/demo`, presenting `token` (none when `undefined`). */
async function connected(token: string | undefined): Promise<Client> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const transport = new StreamableHTTPClientTransport(new URL("/mcp/demo", worker.origin), {
    requestInit: { headers },
  });
  const client = new Client({ name: "interop", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("the demo app as an MCP server under wrangler dev, with the official SDK's client", () => {
  it("lists one tool that runs a turn, calls it, and continues the session with the id it returned", async () => {
    const client = await connected(TOKEN);
    try {
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
      const { tools } = await client.listTools();
      expect(tools.map((t) => [t.name, t.inputSchema.required])).toEqual([["demo", ["message"]]]);

      const progress: string[] = [];
      // SAFETY: a tools/call without a task answers a CallToolResult.
      const first = (await client.callTool(
        { name: "demo", arguments: { message: "What is the weather in Paris?" } },
        undefined,
        {
          onprogress: (p) => progress.push(p.message ?? ""),
        },
      )) as CallToolResult;
      expect(first.isError).toBeUndefined();
      const { sessionId, text } = first.structuredContent as { sessionId: string; text: string };
      expect(text).toContain("get_forecast returned city: Paris");
      expect(first.content).toEqual([{ type: "text", text }]);
      expect(progress).toContain("weather calls get_forecast");

      // SAFETY: as above.
      const second = (await client.callTool({
        name: "demo",
        arguments: { message: "And my invoice refund?", sessionId },
      })) as CallToolResult;
      expect(second.structuredContent).toMatchObject({ sessionId });
      const stored: Session = await (
        await fetch(`${worker.origin}/apps/demo/users/baton:mcp:mcp/sessions/${sessionId}`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      ).json();
      const said = stored.events.filter((e) => e.author === "user").map((e) => e.content?.parts?.[0]?.text);
      expect(said).toEqual(["What is the weather in Paris?", "And my invoice refund?"]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("answers a session id that does not exist with a tool error", async () => {
    const client = await connected(TOKEN);
    try {
      // SAFETY: as above.
      const result = (await client.callTool({
        name: "demo",
        arguments: { message: "hi", sessionId: "no-such-session" },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(/^session_not_found: /) }]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("is refused without a token, and with a wrong one", async () => {
    await expect(connected(undefined)).rejects.toMatchObject({ code: 401 });
    await expect(connected("not-the-token")).rejects.toMatchObject({ code: 401 });
  }, 60_000);
});
