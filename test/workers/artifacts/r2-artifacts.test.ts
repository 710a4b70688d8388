import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BlobArtifactService } from "../../../src/artifacts/blob-artifact-service.js";
import { durableObjectLedger } from "../../../src/artifacts/do-artifact-ledger.js";
import { r2Blobs } from "../../../src/artifacts/r2-blobs.js";
import { describeArtifactServiceContract } from "../../contract/artifact-service-contract.js";
import { freshIds } from "../support/http.js";

// The ARTIFACTS bucket of wrangler.toml, simulated by Miniflare, with each user's object as the ledger
// (what `r2Artifacts()` gives a Worker), and with the isolate's memory as the ledger.
describeArtifactServiceContract(
  "R2 (ARTIFACTS), the user's object as ledger",
  (options) =>
    new BlobArtifactService(r2Blobs(env.ARTIFACTS), { ...options, ledger: durableObjectLedger(env) }),
);
describeArtifactServiceContract(
  "R2 (ARTIFACTS), a ledger in memory",
  (options) => new BlobArtifactService(r2Blobs(env.ARTIFACTS), options),
);

describe("the user's artifact ledger over blobs it did not see saved", () => {
  const service = (maxScopeBytes = 64) =>
    new BlobArtifactService(r2Blobs(env.ARTIFACTS), {
      limits: { maxArtifactBytes: 16, maxScopeBytes },
      ledger: durableObjectLedger(env),
    });
  const blobs = r2Blobs(env.ARTIFACTS);
  const keyOf = (app: string, user: string, session: string, name: string, version: number) =>
    `apps/${app}/users/${user}/sessions/${session}/artifacts/${name}/versions/${version}`;

  it("counts versions saved before the ledger existed, and numbers new ones after them", async () => {
    const { app, user, session } = freshIds("ledger");
    for (const version of [0, 1, 2])
      await blobs.create(keyOf(app, user, session, "old.txt", version), new Uint8Array(16), { kind: "text" });
    const store = service(64);
    const at = { appName: app, userId: user, sessionId: session };
    expect(await store.saveArtifact({ ...at, filename: "old.txt", artifact: { text: "new" } })).toBe(3);
    await expect(
      store.saveArtifact({ ...at, filename: "other.txt", artifact: { text: "0123456789abcdef" } }),
    ).rejects.toMatchObject({ code: "quota_exceeded" });
  });

  it("takes the next number when a blob it did not know holds the one it reserved", async () => {
    const { app, user, session } = freshIds("ledger");
    const store = service(1024);
    const at = { appName: app, userId: user, sessionId: session };
    expect(await store.saveArtifact({ ...at, filename: "n.txt", artifact: { text: "a" } })).toBe(0);
    // A save cut off before it settled left version 1 in the bucket, unknown to the ledger.
    await blobs.create(keyOf(app, user, session, "n.txt", 1), new Uint8Array(8), { kind: "text" });
    expect(await store.saveArtifact({ ...at, filename: "n.txt", artifact: { text: "b" } })).toBe(2);
    expect(await store.listVersions({ ...at, filename: "n.txt" })).toEqual([0, 1, 2]);
  });
});
