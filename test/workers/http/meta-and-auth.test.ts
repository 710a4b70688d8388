import { describe, expect, it } from "vitest";
import { helloWorker as setup } from "../support/hello-worker.js";
import { expectJson } from "../support/http.js";

describe("ADK HTTP API over Durable Object sessions: service endpoints and auth", () => {
  it("serves /health without a token, and /version and /list-apps (plain and detailed) with one", async () => {
    const { call, app } = setup();
    expect(await expectJson(call("/health", { token: null }), 200)).toEqual({ status: "ok" });
    expect(await expectJson(call("/version"), 200)).toMatchObject({
      version: "0.1.0",
      language: "typescript",
    });
    expect(await expectJson(call("/list-apps"), 200)).toEqual([app]);
    expect(await expectJson(call("/list-apps?detailed=true"), 200)).toEqual({
      apps: [
        {
          name: app,
          rootAgentName: "root",
          description: "",
          language: "typescript",
          isComputerUse: false,
          agents: ["root"],
        },
      ],
    });
  });

  it("accepts every token of a comma-separated API_TOKENS and refuses a missing or wrong one with 401", async () => {
    const { call } = setup({ API_TOKENS: "alpha, beta" });
    expect((await call("/list-apps", { token: "alpha" })).status).toBe(200);
    expect((await call("/list-apps", { token: "beta" })).status).toBe(200);
    const refusals = [
      call("/list-apps", { token: null }),
      call("/list-apps", { token: "gamma" }),
      call("/list-apps", { token: "alpha, beta" }), // not one token: a malformed header
      call("/list-apps", { token: null, headers: { authorization: "Basic YWxwaGE6" } }),
    ];
    for (const refusal of refusals) {
      const res = await refusal;
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
      const body = await expectJson(res, 401);
      expect(body).toEqual({ detail: "Missing or invalid bearer token.", code: "unauthorized" });
    }
    expect((await call("/health", { token: null })).status).toBe(200);
  });

  it("refuses everything but /health with a how-to message when no tokens are configured", async () => {
    for (const vars of [{ API_TOKENS: undefined }, { API_TOKENS: " , ", ALLOW_UNAUTHENTICATED: "false" }]) {
      const { call } = setup(vars);
      const body = await expectJson<{ detail: string; code: string }>(
        call("/list-apps", { token: null }),
        401,
      );
      expect(body.code).toBe("unauthorized");
      expect(body.detail).toContain("wrangler secret put API_TOKENS");
      expect((await call("/list-apps", { token: "anything" })).status).toBe(401);
      expect((await call("/health", { token: null })).status).toBe(200);
    }
  });

  it('serves without a token when no tokens are configured and ALLOW_UNAUTHENTICATED is "true"', async () => {
    // Serving without tokens, a Worker answers only its own hosts (decision 048): baton.test is the tests'.
    const { call, app } = setup({
      API_TOKENS: undefined,
      ALLOW_UNAUTHENTICATED: "true",
      ALLOWED_HOSTS: "baton.test",
    });
    expect(await expectJson(call("/list-apps", { token: null }), 200)).toEqual([app]);
  });
});
