import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Session } from "../../../src/core/session.js";
import { mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { type Call, callWorker, expectJson, freshIds } from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";

/** The official SDK's client talking to a Worker through `call` (no network), as `token`. */
async function clientOf(call: Call, app: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://baton.test/mcp/${app}`), {
    fetch: (url, init) => {
      const { pathname } = new URL(String(url));
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      // SAFETY: the SDK sends string bodies (JSON) or none.
      const body = init?.body as string | undefined;
      return call(pathname, { method: init?.method ?? "GET", headers, token, ...(body ? { body } : {}) });
    },
  });
  const client = new Client(
    { name: "users-test", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(transport);
  return client;
}

const ask = async (client: Client, tool: string, args: Record<string, unknown>) =>
  CallToolResultSchema.parse(await client.callTool({ name: tool, arguments: args }));

describe("/mcp/<app> with end users' JWTs", () => {
  it("runs an end user's turns in their own sessions, and keeps another user out of them", async () => {
    const issuer = await testIssuer();
    const { app, id } = freshIds("mcpu");
    const root = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
    const call = callWorker(
      {
        apps: [defineApp({ name: app, rootAgent: root })],
        mcp: mcpServer(),
        services: { fetch: issuer.fetch },
      },
      // The tests' Worker is reached as http://baton.test: a host of its own (decision 048).
      { ...issuer.vars, ALLOWED_HOSTS: "baton.test" },
    );
    const alice = `alice-${id}`;
    const asAlice = await clientOf(call, app, await issuer.token({ sub: alice }));
    const asBob = await clientOf(call, app, await issuer.token({ sub: `bob-${id}` }));
    try {
      const first = await ask(asAlice, app, { message: "hello there" });
      expect(first.isError).toBeUndefined();
      const sessionId = String(first.structuredContent?.sessionId);
      const stored = await expectJson<Session>(
        call(`/apps/${app}/users/${alice}/sessions/${sessionId}`),
        200,
      );
      expect(stored.userId).toBe(alice);

      const intruder = await ask(asBob, app, { message: "let me in", sessionId });
      expect(intruder.isError).toBe(true);
      expect(intruder.content).toEqual([
        { type: "text", text: expect.stringMatching(/^session_not_found: /) },
      ]);
      const after = await expectJson<Session>(call(`/apps/${app}/users/${alice}/sessions/${sessionId}`), 200);
      expect(after.events.map((e) => e.id)).toEqual(stored.events.map((e) => e.id));
    } finally {
      await Promise.all([asAlice.close(), asBob.close()]);
    }
  });
});
