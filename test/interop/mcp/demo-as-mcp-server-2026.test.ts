import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoWorker, startDemoWorker } from "../../support/demo-worker.js";

const TOKEN = "interop-mcp26-token";
let worker: DemoWorker;

beforeAll(async () => {
  worker = await startDemoWorker({ API_TOKENS: TOKEN });
}, 120_000);
afterAll(async () => worker?.dispose());

const endpoint = () => new URL("/mcp/demo", worker.origin);
const requestInit = { headers: { authorization: `Bearer ${TOKEN}` } };

describe("the demo app as an MCP server under wrangler dev, MCP 2026-07-28 with the v2 SDK's client", () => {
  it("negotiates 2026-07-28 through server/discover and runs a turn, continuing its session", async () => {
    const client = new Client(
      { name: "interop-v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new StreamableHTTPClientTransport(endpoint(), { requestInit }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["demo"]);
      const progress: string[] = [];
      const first = await client.callTool(
        { name: "demo", arguments: { message: "What is the weather in Paris?" } },
        { onprogress: (p) => progress.push(p.message ?? "") },
      );
      const { sessionId, text } = first.structuredContent as { sessionId: string; text: string };
      expect(text).toContain("get_forecast returned city: Paris");
      expect(progress).toContain("weather calls get_forecast");
      const second = await client.callTool({
        name: "demo",
        arguments: { message: "And my invoice refund?", sessionId },
      });
      expect(second.structuredContent).toMatchObject({ sessionId });
    } finally {
      await client.close();
    }
  });

  it("answers a 2025 client (the v1 SDK's) and a 2026 one on the same endpoint, in parallel", async () => {
    const v2 = new Client(
      { name: "v2", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    const v1 = new V1Client({ name: "v1", version: "1" });
    await Promise.all([
      v2.connect(new StreamableHTTPClientTransport(endpoint(), { requestInit })),
      v1.connect(new V1Transport(endpoint(), { requestInit })),
    ]);
    try {
      expect(v2.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(v1.getServerVersion()?.name).toBe("demo");
      const [a, b] = await Promise.all([
        v2.callTool({ name: "demo", arguments: { message: "hello" } }),
        v1.callTool({ name: "demo", arguments: { message: "hello" } }),
      ]);
      expect(a.isError).toBeFalsy();
      expect(b.isError).toBeFalsy();
    } finally {
      await Promise.all([v2.close(), v1.close()]);
    }
  });
});
