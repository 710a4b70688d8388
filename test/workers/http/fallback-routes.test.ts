import { describe, expect, it } from "vitest";
import { r2Artifacts } from "../../../src/cloudflare-artifacts.js";
import { evalRoutes } from "../../../src/cloudflare-evals.js";
import { demoApp } from "../../../src/demo/app.js";
import { defineApp } from "../../../src/runner/app.js";
import { callWorker, freshIds } from "../support/http.js";

function setup(served: boolean) {
  const ids = freshIds("fb");
  const app = defineApp({ ...demoApp, name: ids.app });
  const call = callWorker({
    apps: [app],
    ...(served ? { evals: evalRoutes(), artifacts: r2Artifacts() } : {}),
  });
  const artifacts = `/apps/${ids.app}/users/u/sessions/s/artifacts`;
  const evalSets = `/apps/${ids.app}/eval_sets`;
  const answer = async (method: string, path: string) => {
    const res = await call(path, { method });
    const text = await res.text();
    return {
      status: res.status,
      allow: res.headers.get("allow"),
      body: text === "" ? null : JSON.parse(text),
    };
  };
  return { ...ids, artifacts, evalSets, answer };
}

describe("routes a Worker serves, asked in ways it does not", () => {
  it("answers 405 with Allow to a method an eval or artifact route does not serve, never 501", async () => {
    const t = setup(true);
    for (const method of ["OPTIONS", "PUT", "PATCH", "DELETE"]) {
      const sets = await t.answer(method, t.evalSets);
      expect([method, sets.status, sets.allow]).toEqual([method, 405, "GET, HEAD"]);
      expect(sets.body).toMatchObject({ code: "method_not_allowed" });
    }
    for (const method of ["OPTIONS", "PUT", "DELETE"]) {
      const files = await t.answer(method, t.artifacts);
      expect([method, files.status, files.allow]).toEqual([method, 405, "GET, POST, HEAD"]);
    }
    expect(await t.answer("OPTIONS", `${t.artifacts}/report.txt`)).toMatchObject({
      status: 405,
      allow: "GET, DELETE, HEAD",
    });
    expect(await t.answer("POST", `/apps/${t.app}/metrics-info`)).toMatchObject({
      status: 405,
      allow: "GET, HEAD",
    });
  });

  it("answers HEAD on a GET route as GET does, without a body", async () => {
    const t = setup(true);
    expect(await t.answer("HEAD", t.evalSets)).toMatchObject({ status: 200, body: null });
    expect(await t.answer("HEAD", t.artifacts)).toMatchObject({ status: 200, body: null });
  });

  it("answers 404 to a trailing slash or an unknown path under routes it serves", async () => {
    const t = setup(true);
    for (const path of [
      `${t.evalSets}/`,
      `${t.artifacts}/`,
      `${t.artifacts}/a/b/c/d`,
      `/apps/${t.app}/eval_sets/x/y/z`,
    ]) {
      const res = await t.answer("GET", path);
      expect([path, res.status, res.body]).toEqual([path, 404, { detail: "Not Found" }]);
    }
  });

  it("answers 405 to a method the ADK routes do not serve, and 404 to a path nobody serves", async () => {
    const t = setup(true);
    expect(await t.answer("GET", "/run")).toMatchObject({ status: 405, allow: "POST" });
    expect(await t.answer("PUT", `/apps/${t.app}/users/u/sessions/s`)).toMatchObject({
      status: 405,
      allow: "GET, DELETE, PATCH, HEAD",
    });
    expect(await t.answer("GET", "/no/such/path")).toMatchObject({ status: 404 });
  });

  it("keeps answering 501 naming what to pass on the routes of a Worker built without them", async () => {
    const t = setup(false);
    for (const [method, path] of [
      ["GET", t.evalSets],
      ["OPTIONS", t.evalSets],
      ["GET", `${t.evalSets}/`],
      ["HEAD", t.artifacts],
      ["POST", t.artifacts],
    ] as const) {
      const res = await t.answer(method, path);
      expect([method, path, res.status]).toEqual([method, path, 501]);
    }
  });
});
