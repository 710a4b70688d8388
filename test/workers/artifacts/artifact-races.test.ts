import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { r2Artifacts } from "../../../src/cloudflare-artifacts.js";
import { helloApp } from "../support/apps.js";
import { callWorker, freshIds } from "../support/http.js";
import { hookWorker } from "../support/webhooks.js";

/** Limits scaled down 64 times from the defaults (4 MiB a version, 64 MiB a scope): 16 versions fit. */
const LIMITS = { maxArtifactBytes: 64 * 1024, maxScopeBytes: 1024 * 1024 };
const FULL = btoa("x".repeat(LIMITS.maxArtifactBytes));

function setup() {
  const ids = freshIds("race");
  const call = callWorker({ apps: [helloApp(ids.app)], artifacts: r2Artifacts({ limits: LIMITS }) });
  const base = (session: string) => `/apps/${ids.app}/users/${ids.user}/sessions/${session}/artifacts`;
  const save = async (session: string, filename: string) => {
    const res = await call(base(session), {
      method: "POST",
      json: { filename, artifact: { inlineData: { mimeType: "application/octet-stream", data: FULL } } },
    });
    const body = (await res.json()) as { version?: number; code?: string };
    return { status: res.status, retryAfter: res.headers.get("retry-after"), ...body };
  };
  /** The bytes the bucket holds under a prefix of this user's. */
  const stored = async (prefix: string) => {
    let bytes = 0;
    let cursor: string | undefined;
    do {
      const page = await env.ARTIFACTS.list({
        prefix: `apps/${ids.app}/users/${ids.user}/${prefix}`,
        ...(cursor ? { cursor } : {}),
      });
      for (const object of page.objects) bytes += object.size;
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return bytes;
  };
  return { ...ids, save, stored };
}

const count = (outcomes: readonly { status: number }[]) =>
  Object.fromEntries(
    [...new Set(outcomes.map((o) => o.status))]
      .sort()
      .map((s) => [s, outcomes.filter((o) => o.status === s).length]),
  );

describe("artifact saves racing each other", () => {
  it("stores no more than a session's budget when 20 full-size saves arrive at once", async () => {
    const t = setup();
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, n) => t.save("s1", `f${n}.bin`)));
    expect(count(outcomes)).toEqual({ 200: 16, 413: 4 });
    expect(outcomes.filter((o) => o.status === 413).map((o) => o.code)).toEqual(
      Array(4).fill("quota_exceeded"),
    );
    expect(await t.stored("sessions/s1/")).toBe(LIMITS.maxScopeBytes);
  });

  it("stores no more than a user's user: budget when 40 saves from many sessions arrive at once", async () => {
    const t = setup();
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, n) => t.save(`s${n % 5}`, "user:big.bin")),
    );
    expect(count(outcomes)).toEqual({ 200: 16, 413: 24 });
    expect(await t.stored("artifacts/")).toBe(LIMITS.maxScopeBytes);
  });

  it("gives 16 concurrent saves of one name 16 distinct versions, and never answers 500", async () => {
    const t = setup();
    const outcomes = await Promise.all(Array.from({ length: 16 }, () => t.save("s1", "same.bin")));
    expect(count(outcomes)).toEqual({ 200: 16 });
    expect(outcomes.map((o) => o.version).sort((a = 0, b = 0) => a - b)).toEqual([...Array(16).keys()]);
  });

  it("answers 503 with Retry-After when the user's object is overloaded, and stores nothing", async () => {
    const ids = freshIds("busy");
    const overloaded = () =>
      Promise.reject(Object.assign(new Error("Durable Object is overloaded."), { overloaded: true }));
    const USERS = {
      getByName: () => ({
        reserveArtifact: overloaded,
        settleArtifact: overloaded,
        forgetArtifacts: overloaded,
      }),
    };
    const worker = hookWorker(
      { apps: [helloApp(ids.app)], artifacts: r2Artifacts({ limits: LIMITS }) },
      { USERS },
    );
    const res = await worker.call(`/apps/${ids.app}/users/${ids.user}/sessions/s1/artifacts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ filename: "a.txt", artifact: { text: "hi" } }),
    });
    expect([res.status, res.headers.get("retry-after")]).toEqual([503, "1"]);
    expect(await res.json()).toMatchObject({ code: "storage_busy" });
    const left = await env.ARTIFACTS.list({ prefix: `apps/${ids.app}/users/${ids.user}/` });
    expect(left.objects).toEqual([]);
  });
});
