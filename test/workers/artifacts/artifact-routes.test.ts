import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { r2Artifacts } from "../../../src/cloudflare-artifacts.js";
import type { ArtifactVersion } from "../../../src/core/artifacts.js";
import { ARTIFACT_LIMITS } from "../../../src/core/artifacts.js";
import { artifactBodyLimit } from "../../../src/handlers/artifacts.js";
// Loaded here so the entry's module graph is imported with the file, not inside the first test's timeout.
import "../../../src/worker.js";
import { helloApp } from "../support/apps.js";
import { type Call, callEntry, callWorker, expectJson, freshIds } from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";

type Refusal = { detail: string; code: string };

const MAX_ARTIFACT_BODY_BYTES = artifactBodyLimit(ARTIFACT_LIMITS);

const pngPart = { inlineData: { mimeType: "image/png", data: btoa("\x89PNG\r\n\x1a\n-bytes") } };

const artifactsOf = (app: string, user: string, session: string) =>
  `/apps/${app}/users/${user}/sessions/${session}/artifacts`;

async function save(call: Call, base: string, body: unknown) {
  return expectJson<ArtifactVersion>(call(base, { method: "POST", json: body }), 200);
}

describe("ADK's artifact routes, over the demo Worker's R2 bucket", () => {
  it("saves versions, lists names and versions, and reads each version as a Part with its metadata", async () => {
    const call = callEntry();
    const { user, session } = freshIds();
    const base = artifactsOf("demo", user, session);
    const first = await save(call, base, {
      filename: "chart.png",
      artifact: pngPart,
      custom_metadata: { by: "test" },
    });
    expect(first).toEqual({
      version: 0,
      canonicalUri: `r2://apps/demo/users/${user}/sessions/${session}/artifacts/chart.png/versions/0`,
      customMetadata: { by: "test" },
      createTime: expect.any(Number),
      mimeType: "image/png",
    });
    expect(Math.abs(first.createTime - Date.now() / 1000)).toBeLessThan(60);
    const second = await save(call, base, { filename: "chart.png", artifact: { text: "as text" } });
    expect([second.version, second.mimeType, second.customMetadata]).toEqual([1, "text/plain", {}]);
    await save(call, base, { filename: "user:prefs.json", artifact: { text: "{}" } });

    expect(await expectJson(call(base), 200)).toEqual(["chart.png", "user:prefs.json"]);
    expect(await expectJson(call(`${base}/chart.png`), 200)).toEqual({ text: "as text" });
    expect(await expectJson(call(`${base}/chart.png?version=0`), 200)).toEqual(pngPart);
    expect(await expectJson(call(`${base}/chart.png/versions`), 200)).toEqual([0, 1]);
    expect(await expectJson(call(`${base}/chart.png/versions/0`), 200)).toEqual(pngPart);
    expect(await expectJson(call(`${base}/chart.png/versions/metadata`), 200)).toEqual([first, second]);
    expect(await expectJson(call(`${base}/chart.png/versions/1/metadata`), 200)).toEqual(second);
    // The user's `user:` artifact is listed in every session of theirs.
    expect(await expectJson(call(artifactsOf("demo", user, `${session}-2`)), 200)).toEqual([
      "user:prefs.json",
    ]);

    expect(await expectJson(call(`${base}/chart.png`, { method: "DELETE" }), 200)).toBeNull();
    expect(await expectJson(call(base), 200)).toEqual(["user:prefs.json"]);
    expect(await expectJson(call(`${base}/chart.png/versions`), 200)).toEqual([]);
  });

  it("answers ADK's 404s for a missing artifact or version, and 400 for a version that is no number", async () => {
    const call = callEntry();
    const { user, session } = freshIds();
    const base = artifactsOf("demo", user, session);
    await save(call, base, { filename: "a.txt", artifact: { text: "a" } });
    expect(await expectJson<Refusal>(call(`${base}/missing.txt`), 404)).toEqual({
      detail: "Artifact not found",
      code: "not_found",
    });
    expect(await expectJson<Refusal>(call(`${base}/a.txt/versions/3`), 404)).toMatchObject({
      code: "not_found",
    });
    expect(await expectJson<Refusal>(call(`${base}/a.txt/versions/3/metadata`), 404)).toEqual({
      detail: "Artifact version not found",
      code: "not_found",
    });
    expect(await expectJson<Refusal>(call(`${base}/a.txt?version=-1`), 400)).toMatchObject({
      code: "invalid_request",
    });
    expect(await expectJson<Refusal>(call(`${base}/a.txt/versions/x1`), 400)).toMatchObject({
      code: "invalid_request",
    });
    expect(await expectJson(call(`${base}/never.txt`, { method: "DELETE" }), 200)).toBeNull();
  });

  it("refuses bodies that are no Part, file references, bad base64 and artifacts past the size limit", async () => {
    const call = callEntry();
    const { user, session } = freshIds();
    const base = artifactsOf("demo", user, session);
    const refused = (body: unknown, status = 400) =>
      expectJson<Refusal>(call(base, { method: "POST", json: body }), status);
    expect((await refused({ artifact: { text: "no name" } })).detail).toMatch(/filename/);
    expect((await refused({ filename: "a/b", artifact: { text: "x" } })).detail).toMatch(/artifact name/);
    const file = { fileData: { fileUri: "gs://b/x.pdf" } };
    expect((await refused({ filename: "x.pdf", artifact: file })).detail).toMatch(/inlineData or text/);
    const bad = { inlineData: { mimeType: "image/png", data: "%%%" } };
    expect((await refused({ filename: "x.png", artifact: bad })).detail).toMatch(/not base64/);
    // Just under the route's body cap, but over the artifact limit once decoded: the store's refusal.
    const over = "A".repeat(Math.floor((MAX_ARTIFACT_BODY_BYTES - 1024) / 4) * 4);
    const tooBig = await refused(
      { filename: "big.bin", artifact: { inlineData: { mimeType: "x/y", data: over } } },
      413,
    );
    expect([tooBig.code, tooBig.detail]).toEqual([
      "payload_too_large",
      expect.stringMatching(/maxArtifactBytes/),
    ]);
    // Past the route's cap: refused before it is parsed.
    const huge = "A".repeat(MAX_ARTIFACT_BODY_BYTES + 4);
    const capped = await refused(
      { filename: "huge.bin", artifact: { inlineData: { mimeType: "x/y", data: huge } } },
      413,
    );
    expect(capped.code).toBe("payload_too_large");
    expect(await expectJson(call(base), 200)).toEqual([]);
  });

  it("drops a deleted session's artifacts and keeps its user's user: ones", async () => {
    const call = callEntry();
    const { user, session } = freshIds();
    await expectJson(
      call(`/apps/demo/users/${user}/sessions`, { method: "POST", json: { sessionId: session } }),
      200,
    );
    const base = artifactsOf("demo", user, session);
    await save(call, base, { filename: "s.txt", artifact: { text: "s" } });
    await save(call, base, { filename: "user:u.txt", artifact: { text: "u" } });
    await expectJson(call(`/apps/demo/users/${user}/sessions/${session}`, { method: "DELETE" }), 200);
    expect(await expectJson(call(base), 200)).toEqual(["user:u.txt"]);
  });

  it("answers 501 naming what is missing: the option, or the bucket the option names", async () => {
    const { app, user, session } = freshIds("noart");
    const without = callWorker({ apps: [helloApp(app)] });
    const refused = await expectJson<Refusal>(without(artifactsOf(app, user, session)), 501);
    expect(refused).toEqual({ code: "not_supported", detail: expect.stringMatching(/r2Artifacts\(\)/) });
    const unbound = callWorker({ apps: [helloApp(app)], artifacts: r2Artifacts({ binding: "FILES" }) });
    const missing = await expectJson<Refusal>(
      unbound(`${artifactsOf(app, user, session)}/a.txt/versions`),
      501,
    );
    expect(missing).toEqual({ code: "not_supported", detail: expect.stringMatching(/R2 bucket as FILES/) });
  });
});

describe("artifacts in end-user mode", () => {
  it("lets a user reach only their own artifacts, whichever route and version", async () => {
    const issuer = await testIssuer();
    const { app, id, session } = freshIds("art-users");
    const call = callWorker(
      { apps: [helloApp(app)], artifacts: r2Artifacts(), services: { fetch: issuer.fetch } },
      issuer.vars,
    );
    const [alice, bob] = [`alice-${id}`, `bob-${id}`];
    const asAlice: Call = async (path, init = {}) =>
      call(path, { token: await issuer.token({ sub: alice }), ...init });
    const asBob: Call = async (path, init = {}) =>
      call(path, { token: await issuer.token({ sub: bob }), ...init });
    const aliceBase = artifactsOf(app, alice, session);
    await save(asAlice, aliceBase, { filename: "secret.txt", artifact: { text: "alice's" } });
    expect(await expectJson(asAlice(`${aliceBase}/secret.txt`), 200)).toEqual({ text: "alice's" });
    for (const [path, method] of [
      [aliceBase, "GET"],
      [`${aliceBase}/secret.txt`, "GET"],
      [`${aliceBase}/secret.txt/versions`, "GET"],
      [`${aliceBase}/secret.txt/versions/metadata`, "GET"],
      [`${aliceBase}/secret.txt/versions/0`, "GET"],
      [`${aliceBase}/secret.txt/versions/0/metadata`, "GET"],
      [`${aliceBase}/secret.txt`, "DELETE"],
    ] as const) {
      expect(await expectJson<Refusal>(asBob(path, { method }), 403)).toMatchObject({ code: "forbidden" });
    }
    const write = asBob(aliceBase, {
      method: "POST",
      json: { filename: "planted.txt", artifact: { text: "bob" } },
    });
    expect(await expectJson<Refusal>(write, 403)).toMatchObject({ code: "forbidden" });
    // Bob's own session of the same id holds nothing of alice's.
    expect(await expectJson(asBob(artifactsOf(app, bob, session)), 200)).toEqual([]);
    expect(await expectJson(asAlice(aliceBase), 200)).toEqual(["secret.txt"]);
  });
});

// The bucket the tests above use is wrangler.toml's, simulated by Miniflare.
it("runs against the ARTIFACTS binding of wrangler.toml", () => {
  expect(env.ARTIFACTS).toBeDefined();
});
