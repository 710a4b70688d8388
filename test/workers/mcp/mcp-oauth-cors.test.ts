import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { callWorker, freshIds } from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const MCP_HEADERS = { accept: "application/json, text/event-stream" };
const ORIGIN = "http://localhost:8787";

function setup(vars: Record<string, string | undefined> = {}, fetch?: typeof globalThis.fetch) {
  const { app } = freshIds("mcpo");
  const root = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
  const call = callWorker(
    {
      apps: [defineApp({ name: app, rootAgent: root })],
      mcp: mcpServer(),
      ...(fetch === undefined ? {} : { services: { fetch } }),
    },
    vars,
  );
  return { app, call };
}

describe("/mcp/<app> for OAuth clients (RFC 9728)", () => {
  it("serves the protected resource metadata naming the JWT issuer, in the root and the path-suffixed form", async () => {
    const issuer = await testIssuer();
    const { app, call } = setup(issuer.vars);
    const suffixed = await call(`${ORIGIN}/.well-known/oauth-protected-resource/mcp/${app}`, { token: null });
    expect(suffixed.status).toBe(200);
    expect(await suffixed.json()).toEqual({
      resource: `${ORIGIN}/mcp/${app}`,
      authorization_servers: [issuer.vars.JWT_ISSUER],
      bearer_methods_supported: ["header"],
      resource_name: "Baton MCP server",
    });
    const root = await call(`${ORIGIN}/.well-known/oauth-protected-resource`, { token: null });
    expect(await root.json()).toMatchObject({
      resource: ORIGIN,
      authorization_servers: [issuer.vars.JWT_ISSUER],
    });
  });

  it("names the metadata in the 401's WWW-Authenticate, and answers the 401 as a JSON-RPC error", async () => {
    const issuer = await testIssuer();
    const { app, call } = setup(issuer.vars, issuer.fetch);
    const refused = await call(`${ORIGIN}/mcp/${app}`, {
      method: "POST",
      token: null,
      json: INITIALIZE,
      headers: MCP_HEADERS,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer error="invalid_request", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp/${app}"`,
    );
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Missing or invalid bearer token.", data: { code: "unauthorized" } },
    });
    // A token the issuer signed is served.
    const served = await call(`${ORIGIN}/mcp/${app}`, {
      method: "POST",
      token: await issuer.token({ sub: "alice" }),
      json: INITIALIZE,
      headers: MCP_HEADERS,
    });
    expect(served.status).toBe(200);
    await served.text();
  });

  it("has no metadata and no resource_metadata when the Worker takes service tokens only", async () => {
    const { app, call } = setup();
    const none = await call(`${ORIGIN}/.well-known/oauth-protected-resource/mcp/${app}`, { token: null });
    expect(none.status).toBe(404);
    await none.text();
    const refused = await call(`${ORIGIN}/mcp/${app}`, { method: "POST", token: null, json: INITIALIZE });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="invalid_request"');
    await refused.text();
  });

  it("answers an unknown app, a wrong token and a GET as JSON-RPC errors with their statuses", async () => {
    const { app, call } = setup();
    const missing = await call(`${ORIGIN}/mcp/no-such-app`, { method: "POST", json: INITIALIZE });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    const wrong = await call(`${ORIGIN}/mcp/${app}`, { method: "POST", token: "nope", json: INITIALIZE });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ jsonrpc: "2.0", error: { data: { code: "unauthorized" } } });
    const get = await call(`${ORIGIN}/mcp/${app}`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await get.json()).toMatchObject({ jsonrpc: "2.0", error: { message: expect.any(String) } });
  });
});

describe("/mcp/<app> for browsers (CORS on ALLOWED_ORIGINS)", () => {
  const preflight = (headers: Record<string, string>) => ({
    method: "OPTIONS",
    token: null,
    headers: { "access-control-request-method": "POST", ...headers },
  });

  it("answers a listed origin's preflight without a token, and its calls with Allow-Origin and the exposed headers", async () => {
    const { app, call } = setup({ ALLOWED_ORIGINS: "https://inspector.example" });
    const pre = await call(
      `${ORIGIN}/mcp/${app}`,
      preflight({
        origin: "https://inspector.example",
        "access-control-request-headers": "authorization, content-type, mcp-protocol-version",
      }),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://inspector.example");
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    expect(pre.headers.get("access-control-allow-headers")).toBe(
      "authorization, content-type, mcp-protocol-version",
    );

    const res = await call(`${ORIGIN}/mcp/${app}`, {
      method: "POST",
      json: INITIALIZE,
      headers: { ...MCP_HEADERS, origin: "https://inspector.example" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://inspector.example");
    expect(res.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
    await res.text();

    // A 401 a browser can read: the challenge and its metadata are exposed across origins too.
    const refused = await call(`${ORIGIN}/mcp/${app}`, {
      method: "POST",
      token: null,
      json: INITIALIZE,
      headers: { origin: "https://inspector.example" },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://inspector.example");
    await refused.text();
  });

  it("is off by default: a preflight is 403 naming ALLOWED_ORIGINS, and a same-host call carries no CORS headers", async () => {
    const { app, call } = setup();
    const pre = await call(`${ORIGIN}/mcp/${app}`, preflight({ origin: "http://localhost:6274" }));
    expect(pre.status).toBe(403);
    expect(await pre.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringContaining("ALLOWED_ORIGINS") },
    });
    const res = await call(`${ORIGIN}/mcp/${app}`, {
      method: "POST",
      json: INITIALIZE,
      headers: { ...MCP_HEADERS, origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    await res.text();
  });
});
