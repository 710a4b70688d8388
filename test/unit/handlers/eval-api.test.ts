import { describe, expect, it } from "vitest";
import { evalRoutes } from "../../../src/cloudflare-evals.js";
import { demoApp } from "../../../src/demo/app.js";
import { InMemoryEvalStore } from "../../../src/evals/eval-store.js";
import { createAdkApi } from "../../../src/handlers/api.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { testServices } from "../support/run-helpers.js";

const ENV = { ALLOW_UNAUTHENTICATED: "true" };

function api(withEvals: boolean) {
  const services = testServices();
  const sessionStore = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const evalStore = new InMemoryEvalStore();
  const http = createAdkApi(
    () => ({ apps: new Map([[demoApp.name, demoApp]]), sessionStore, services, evalStore }),
    withEvals ? { evals: evalRoutes() } : {},
  );
  const call = (path: string, init: RequestInit = {}) => http.request(path, init, ENV);
  const post = (path: string, json: unknown) =>
    call(path, {
      method: "POST",
      body: JSON.stringify(json),
      headers: { "content-type": "application/json" },
    });
  return { call, post, sessionStore };
}

describe("ADK's eval routes in Node (createAdkApi)", () => {
  it("answer 501 with how to turn them on when the API is built without them", async () => {
    const { call } = api(false);
    for (const path of [
      "/dev/apps/demo/eval_sets",
      "/dev/apps/demo/eval_results",
      "/dev/apps/demo/metrics-info",
      "/apps/demo/eval-sets",
      "/apps/demo/eval-sets/s/run",
    ]) {
      const res = await call(path);
      expect(res.status, path).toBe(501);
      expect(await res.json(), path).toMatchObject({
        code: "not_supported",
        detail: expect.stringContaining("pass `evals: evalRoutes()`"),
      });
    }
  });

  it("run a case recorded from a session against the in-memory stores", async () => {
    const { call, post, sessionStore } = api(true);
    await sessionStore.createSession({ appName: "demo", userId: "u", sessionId: "s" });
    const run = await post("/run", {
      appName: "demo",
      userId: "u",
      sessionId: "s",
      newMessage: { role: "user", parts: [{ text: "I need a refund for my last invoice" }] },
    });
    expect(run.status).toBe(200);
    expect((await post("/dev/apps/demo/eval_sets/refunds", {})).status).toBe(200);
    const added = await post("/dev/apps/demo/eval_sets/refunds/add_session", {
      evalId: "r",
      sessionId: "s",
      userId: "u",
    });
    expect(added.status).toBe(200);
    const results = await post("/dev/apps/demo/eval_sets/refunds/run_eval", {
      evalIds: ["r"],
      evalMetrics: [],
    });
    expect(await results.json()).toMatchObject([
      {
        evalId: "r",
        finalEvalStatus: 1,
        overallEvalMetricResults: [
          { metricName: "tool_trajectory_avg_score", threshold: 1, score: 1, evalStatus: 1 },
          { metricName: "response_match_score", threshold: 0.8, score: 1, evalStatus: 1 },
        ],
      },
    ]);
    expect(await (await call("/dev/apps/demo/eval_results")).json()).toEqual([
      expect.stringMatching(/^demo_refunds_\d+(\.\d+)?$/),
    ]);
  });
});
