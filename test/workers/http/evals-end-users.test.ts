import { describe, expect, it } from "vitest";
import { evalRoutes } from "../../../src/cloudflare-evals.js";
import { helloApp } from "../support/apps.js";
import { type Call, callWorker, expectJson, freshIds, TEST_TOKEN } from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";

/*
 * Eval sets hold whole conversations of any user of the app (a case is a copy of someone's session), and
 * a run starts turns as the case's user: they are the developer's, so every eval route takes a service
 * token and an end user's token gets 403, for other users' data and their own alike (decision 034).
 */
describe("eval routes in end-user mode", () => {
  it("answer 403 to an end user's token on every route, while the service token works", async () => {
    const issuer = await testIssuer();
    const { app, id } = freshIds("evals-users");
    const call = callWorker(
      { apps: [helloApp(app)], services: { fetch: issuer.fetch }, evals: evalRoutes() },
      issuer.vars,
    );
    const alice = `alice-${id}`;
    const asAlice: Call = async (path, init = {}) =>
      call(path, { token: await issuer.token({ sub: alice }), ...init });

    // Alice has a session; the developer makes a set of it with the service token.
    await expectJson(
      call(`/apps/${app}/users/${alice}/sessions`, { method: "POST", json: { sessionId: "s1" } }),
      200,
    );
    await expectJson(asAlice(`/apps/${app}/users/${alice}/sessions/s1`), 200);
    await expectJson(call(`/dev/apps/${app}/eval_sets/set1`, { method: "POST", token: TEST_TOKEN }), 200);
    await expectJson(
      call(`/dev/apps/${app}/eval_sets/set1/add_session`, {
        method: "POST",
        json: { evalId: "c1", sessionId: "s1", userId: alice },
      }),
      200,
    );
    expect(await expectJson(call(`/dev/apps/${app}/eval_sets/set1/evals`), 200)).toEqual(["c1"]);

    const routes: [method: string, path: string, json?: unknown][] = [
      ["GET", "/metrics-info"],
      ["GET", "/eval_sets"],
      ["GET", "/eval-sets"],
      ["POST", "/eval-sets", { eval_set: { eval_set_id: "mine" } }],
      ["POST", "/eval_sets/mine"],
      ["GET", "/eval_sets/set1"],
      ["DELETE", "/eval_sets/set1"],
      ["GET", "/eval_sets/set1/evals"],
      ["GET", "/eval_sets/set1/evals/c1"],
      ["PUT", "/eval_sets/set1/evals/c1", { conversation: [] }],
      ["DELETE", "/eval_sets/set1/evals/c1"],
      ["POST", "/eval_sets/set1/add_session", { evalId: "c2", sessionId: "s1", userId: alice }],
      ["POST", "/eval-sets/set1/add-session", { evalId: "c2", sessionId: "s1", userId: alice }],
      ["POST", "/eval_sets/set1/run_eval", { evalIds: [], evalMetrics: [] }],
      ["POST", "/eval-sets/set1/run", { evalCaseIds: [] }],
      ["GET", "/eval_results"],
      ["GET", "/eval-results"],
      ["GET", "/eval_results/anything"],
    ];
    for (const prefix of ["/dev", ""]) {
      for (const [method, path, json] of routes) {
        const res = await asAlice(`${prefix}/apps/${app}${path}`, {
          method,
          ...(json === undefined ? {} : { json }),
        });
        const where = `${method} ${prefix}/apps/${app}${path}`;
        expect(res.status, where).toBe(403);
        expect(await res.json(), where).toMatchObject({
          code: "forbidden",
          detail: expect.stringContaining("needs a service token"),
        });
      }
    }
    // Nothing she tried changed the set.
    expect(await expectJson(call(`/dev/apps/${app}/eval_sets/set1/evals`), 200)).toEqual(["c1"]);
    expect(await expectJson(call(`/dev/apps/${app}/eval_sets`), 200)).toEqual(["set1"]);
  });
});
