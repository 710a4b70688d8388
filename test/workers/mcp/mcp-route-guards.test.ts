import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { callWorker, freshIds, runBody } from "../support/http.js";

/** An MCP `initialize` (what the conformance suite's dns-rebinding-protection scenario sends). */
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "host-check", version: "1.0.0" },
  },
};

const MCP_HEADERS = { accept: "application/json, text/event-stream" };

function setup(vars: Record<string, string | undefined> = {}) {
  const { app } = freshIds("mcph");
  const root = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
  const call = callWorker({ apps: [defineApp({ name: app, rootAgent: root })], mcp: mcpServer() }, vars);
  /** `initialize` sent to `host` (the URL's host is the request's `Host`), with `origin` when given. */
  const initialize = async (host: string, origin?: string, scheme = "http") => {
    const res = await call(`${scheme}://${host}/mcp/${app}`, {
      method: "POST",
      json: INITIALIZE,
      headers: { ...MCP_HEADERS, ...(origin === undefined ? {} : { origin }) },
    });
    return { status: res.status, body: await res.text() };
  };
  return { app, call, initialize };
}

describe("/mcp/<app> against DNS rebinding", () => {
  it("answers 403 to a request whose Host is not the Worker's, as a JSON-RPC error", async () => {
    const t = setup();
    const refused = await t.initialize("evil.example.com", "http://evil.example.com");
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.stringMatching(/^Invalid Host header: evil\.example\.com/) },
    });
    expect((await t.initialize("evil.example.com:8787")).status).toBe(403);
    expect((await t.initialize("localhost.evil.example.com")).status).toBe(403);
  });

  it("serves its loopback names on any port and its workers.dev name, with or without their origin", async () => {
    const t = setup();
    for (const host of [
      "localhost:8787",
      "127.0.0.1:9999",
      "[::1]:8787",
      "localhost",
      "baton.acme.workers.dev",
    ])
      expect([host, (await t.initialize(host)).status]).toEqual([host, 200]);
    expect((await t.initialize("127.0.0.1:8787", "http://127.0.0.1:8787")).status).toBe(200);
    expect((await t.initialize("localhost:8787", "http://localhost:6274")).status).toBe(200);
  });

  it("answers 403 to an Origin that is not the Worker's, even on its own host", async () => {
    const t = setup();
    const refused = await t.initialize("localhost:8787", "http://evil.example.com");
    expect(refused.status).toBe(403);
    expect(refused.body).toContain("Invalid Origin header: http://evil.example.com");
    expect((await t.initialize("localhost:8787", "null")).status).toBe(403);
  });

  it("serves the hosts and origins the ALLOWED_HOSTS and ALLOWED_ORIGINS vars name, and no others", async () => {
    const t = setup({
      ALLOWED_HOSTS: "mcp.example.com, *.acme.test",
      ALLOWED_ORIGINS: "https://app.example.org",
    });
    expect((await t.initialize("mcp.example.com", "https://mcp.example.com", "https")).status).toBe(200);
    expect((await t.initialize("a.acme.test:8443")).status).toBe(200);
    expect((await t.initialize("acme.test")).status).toBe(403);
    expect((await t.initialize("mcp.example.com", "https://app.example.org", "https")).status).toBe(200);
    expect((await t.initialize("mcp.example.com", "https://other.example.org", "https")).status).toBe(403);
  });

  it("refuses every route of a Worker serving without tokens to a foreign host, and serves its own", async () => {
    const t = setup({ API_TOKENS: undefined, ALLOW_UNAUTHENTICATED: "true" });
    const run = (host: string) =>
      t.call(`http://${host}/run`, { method: "POST", token: null, json: runBody(t.app, "u", "s1", "hi") });
    const refused = await run("evil.example.com");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "forbidden", detail: expect.stringMatching(/Host/) });
    const list = await t.call(`http://evil.example.com/apps/${t.app}/users/u/sessions`, { token: null });
    expect(list.status).toBe(403);
    await list.text();
    const created = await t.call(`http://127.0.0.1:8787/apps/${t.app}/users/u/sessions`, {
      method: "POST",
      token: null,
      json: { sessionId: "s1" },
    });
    expect(created.status).toBe(200);
    await created.text();
    const served = await run("127.0.0.1:8787");
    expect(served.status).toBe(200);
    await served.text();
  });
});

describe("/mcp/<app> bodies behind the one body guard", () => {
  const nested = (depth: number) => `${'{"k":'.repeat(depth)}1${"}".repeat(depth)}`;
  const post = async (body: string) => {
    const t = setup();
    const res = await t.call(`http://localhost:8787/mcp/${t.app}`, {
      method: "POST",
      body,
      headers: { ...MCP_HEADERS, "content-type": "application/json" },
    });
    return { status: res.status, body: await res.text() };
  };
  const initialize = (meta: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"_meta":${meta},"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`;

  it("answers 400 Invalid Request to a _meta nested 65 or 3,000 levels deep", async () => {
    for (const depth of [65, 3_000]) {
      const refused = await post(initialize(nested(depth)));
      expect([depth, refused.status]).toEqual([depth, 400]);
      expect(JSON.parse(refused.body)).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: expect.stringMatching(/nests deeper than 64 levels/) },
      });
    }
  });

  it("answers 400 to __proto__ and constructor keys, and -32700 to a body that is not JSON", async () => {
    expect((await post(initialize('{"__proto__":{"admin":true}}'))).status).toBe(400);
    expect((await post(initialize('{"a":[{"constructor":1}]}'))).status).toBe(400);
    const garbled = await post("{not json");
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body).error.code).toBe(-32700);
    expect((await post(initialize('{"progressToken":1}'))).status).toBe(200);
  });
});
