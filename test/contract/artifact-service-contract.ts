import { describe, expect, it } from "vitest";
import type { ArtifactLimits, ArtifactService } from "../../src/core/artifacts.js";
import { BatonError } from "../../src/core/errors.js";

/** A fresh service with these limits (the rest default), pinned to `now` (ms) for `createTime`. */
export type ArtifactServiceSetup = (options: {
  limits?: Partial<ArtifactLimits>;
  now: () => number;
}) => ArtifactService;

const NOW_MS = 1_767_225_600_250;
let apps = 0;
/** Each test works in an app of its own: the workerd store is shared by every test of the run. */
const freshApp = () =>
  `artifacts-${Date.now().toString(36)}-${++apps}-${Math.random().toString(36).slice(2, 8)}`;

const png = (bytes: number[]) => ({
  inlineData: { mimeType: "image/png", data: btoa(String.fromCharCode(...bytes)) },
});

async function refusal(promise: Promise<unknown>): Promise<BatonError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof BatonError)) throw new Error(`expected a BatonError, got ${String(error)}`);
  return error;
}

/**
 * ADK's `BaseArtifactService` contract (save → version from 0, load latest or a version, names, versions
 * with metadata, delete, `user:` names per user), plus Baton's limits, run against every adapter.
 */
export function describeArtifactServiceContract(label: string, setup: ArtifactServiceSetup): void {
  describe(`ArtifactService contract: ${label}`, () => {
    const service = (limits?: Partial<ArtifactLimits>) =>
      setup({ now: () => NOW_MS, ...(limits ? { limits } : {}) });
    const key = () => ({ appName: freshApp(), userId: "u1", sessionId: "s1" });

    it("numbers versions from 0 and loads the latest or a given one, text and bytes alike", async () => {
      const store = service();
      const at = key();
      expect(await store.saveArtifact({ ...at, filename: "notes.txt", artifact: { text: "first" } })).toBe(0);
      expect(await store.saveArtifact({ ...at, filename: "notes.txt", artifact: { text: "second é" } })).toBe(
        1,
      );
      expect(
        await store.saveArtifact({ ...at, filename: "chart.png", artifact: png([137, 80, 0, 255]) }),
      ).toBe(0);
      expect(await store.loadArtifact({ ...at, filename: "notes.txt" })).toEqual({ text: "second é" });
      expect(await store.loadArtifact({ ...at, filename: "notes.txt", version: 0 })).toEqual({
        text: "first",
      });
      expect(await store.loadArtifact({ ...at, filename: "notes.txt", version: 7 })).toBeUndefined();
      expect(await store.loadArtifact({ ...at, filename: "missing.txt" })).toBeUndefined();
      expect(await store.loadArtifact({ ...at, filename: "chart.png" })).toEqual(png([137, 80, 0, 255]));
      expect(await store.listVersions({ ...at, filename: "notes.txt" })).toEqual([0, 1]);
      expect(await store.listVersions({ ...at, filename: "missing.txt" })).toEqual([]);
    });

    it("lists a session's names with the user's user: names, and keeps sessions and users apart", async () => {
      const store = service();
      const at = key();
      await store.saveArtifact({ ...at, filename: "b.txt", artifact: { text: "b" } });
      await store.saveArtifact({ ...at, filename: "a.txt", artifact: { text: "a" } });
      await store.saveArtifact({ ...at, filename: "user:profile.json", artifact: { text: "{}" } });
      expect(await store.listArtifactKeys(at)).toEqual(["a.txt", "b.txt", "user:profile.json"]);
      // Another session of the same user sees only the user: name; another user sees nothing.
      expect(await store.listArtifactKeys({ ...at, sessionId: "s2" })).toEqual(["user:profile.json"]);
      expect(await store.loadArtifact({ ...at, sessionId: "s2", filename: "user:profile.json" })).toEqual({
        text: "{}",
      });
      expect(await store.loadArtifact({ ...at, sessionId: "s2", filename: "a.txt" })).toBeUndefined();
      expect(await store.listArtifactKeys({ ...at, userId: "u2" })).toEqual([]);
      expect(
        await store.loadArtifact({ ...at, userId: "u2", filename: "user:profile.json" }),
      ).toBeUndefined();
    });

    it("keeps names with slashes, dots and non-ASCII letters apart from their prefixes", async () => {
      const store = service();
      const at = key();
      await store.saveArtifact({ ...at, filename: "a", artifact: { text: "1" } });
      await store.saveArtifact({ ...at, filename: "a/b", artifact: { text: "2" } });
      await store.saveArtifact({ ...at, filename: "ä versions 1", artifact: { text: "3" } });
      expect(await store.listArtifactKeys(at)).toEqual(["a", "a/b", "ä versions 1"]);
      expect(await store.listVersions({ ...at, filename: "a" })).toEqual([0]);
      expect(await store.loadArtifact({ ...at, filename: "a/b" })).toEqual({ text: "2" });
    });

    it("describes each version as ADK's ArtifactVersion: number, canonical URI, metadata, time, MIME type", async () => {
      const store = service();
      const at = key();
      await store.saveArtifact({
        ...at,
        filename: "c.png",
        artifact: png([1]),
        customMetadata: { source: "test" },
      });
      await store.saveArtifact({ ...at, filename: "c.png", artifact: { text: "now text" } });
      const versions = await store.listArtifactVersions({ ...at, filename: "c.png" });
      expect(versions).toEqual([
        {
          version: 0,
          canonicalUri: expect.stringMatching(
            new RegExp(`^[a-z0-9]+://apps/${at.appName}/users/u1/sessions/s1/artifacts/c\\.png/versions/0$`),
          ),
          customMetadata: { source: "test" },
          createTime: NOW_MS / 1000,
          mimeType: "image/png",
        },
        expect.objectContaining({ version: 1, customMetadata: {}, mimeType: "text/plain" }),
      ]);
      expect(await store.getArtifactVersion({ ...at, filename: "c.png" })).toEqual(versions[1]);
      expect(await store.getArtifactVersion({ ...at, filename: "c.png", version: 0 })).toEqual(versions[0]);
      expect(await store.getArtifactVersion({ ...at, filename: "c.png", version: 5 })).toBeUndefined();
      const user = await store.saveArtifact({ ...at, filename: "user:u.txt", artifact: { text: "u" } });
      const [userVersion] = await store.listArtifactVersions({ ...at, filename: "user:u.txt" });
      expect(userVersion?.canonicalUri).toMatch(
        new RegExp(`://apps/${at.appName}/users/u1/artifacts/user%3Au\\.txt/versions/${user}$`),
      );
    });

    it("deletes every version of one name, leaves the others, and deleting a missing name does nothing", async () => {
      const store = service();
      const at = key();
      await store.saveArtifact({ ...at, filename: "gone.txt", artifact: { text: "1" } });
      await store.saveArtifact({ ...at, filename: "gone.txt", artifact: { text: "2" } });
      await store.saveArtifact({ ...at, filename: "kept.txt", artifact: { text: "3" } });
      await store.deleteArtifact({ ...at, filename: "gone.txt" });
      await store.deleteArtifact({ ...at, filename: "never.txt" });
      expect(await store.listArtifactKeys(at)).toEqual(["kept.txt"]);
      expect(await store.loadArtifact({ ...at, filename: "gone.txt" })).toBeUndefined();
      // A name saved again after a delete starts over at 0, as in ADK's in-memory service.
      expect(await store.saveArtifact({ ...at, filename: "gone.txt", artifact: { text: "4" } })).toBe(0);
    });

    it("drops a deleted session's artifacts but keeps the user's user: ones", async () => {
      const store = service();
      const at = key();
      await store.saveArtifact({ ...at, filename: "s.txt", artifact: { text: "s" } });
      await store.saveArtifact({ ...at, filename: "user:keep.txt", artifact: { text: "k" } });
      await store.deleteSessionArtifacts?.(at);
      expect(await store.listArtifactKeys(at)).toEqual(["user:keep.txt"]);
    });

    it("gives concurrent saves of one name distinct versions", async () => {
      const store = service();
      const at = key();
      const saves = [0, 1, 2, 3, 4].map((n) =>
        store.saveArtifact({ ...at, filename: "race.txt", artifact: { text: String(n) } }),
      );
      expect((await Promise.all(saves)).sort()).toEqual([0, 1, 2, 3, 4]);
      expect(await store.listVersions({ ...at, filename: "race.txt" })).toEqual([0, 1, 2, 3, 4]);
    });

    it("keeps concurrent saves within the budget: as many land as fit, the rest are refused with 413", async () => {
      const store = service({ maxArtifactBytes: 10, maxScopeBytes: 40 });
      const at = key();
      const saves = Array.from({ length: 12 }, (_, n) =>
        store
          .saveArtifact({ ...at, filename: n % 2 ? "a.txt" : `f${n}.txt`, artifact: { text: "0123456789" } })
          .then(
            () => "saved",
            (error: unknown) => (error instanceof BatonError ? error.code : String(error)),
          ),
      );
      const outcomes = await Promise.all(saves);
      expect(outcomes.filter((o) => o === "saved")).toHaveLength(4);
      expect(outcomes.filter((o) => o !== "saved")).toEqual(Array(8).fill("quota_exceeded"));
      const names = await store.listArtifactKeys(at);
      const versions = await Promise.all(names.map((filename) => store.listVersions({ ...at, filename })));
      expect(versions.flat()).toHaveLength(4);
      // A user's `user:` names race for their own budget the same way.
      const user = await Promise.allSettled(
        Array.from({ length: 8 }, (_, n) =>
          store.saveArtifact({
            ...at,
            sessionId: `s${n}`,
            filename: "user:p.txt",
            artifact: { text: "0123456789" },
          }),
        ),
      );
      expect(
        user
          .filter((r) => r.status === "fulfilled")
          .map((r) => r.value)
          .sort(),
      ).toEqual([0, 1, 2, 3]);
    });

    it("frees a deleted name's bytes for the budget", async () => {
      const store = service({ maxArtifactBytes: 10, maxScopeBytes: 20 });
      const at = key();
      await store.saveArtifact({ ...at, filename: "a.txt", artifact: { text: "0123456789" } });
      await store.saveArtifact({ ...at, filename: "a.txt", artifact: { text: "0123456789" } });
      expect(
        (await refusal(store.saveArtifact({ ...at, filename: "b.txt", artifact: { text: "x" } }))).code,
      ).toBe("quota_exceeded");
      await store.deleteArtifact({ ...at, filename: "a.txt" });
      expect(await store.saveArtifact({ ...at, filename: "b.txt", artifact: { text: "x" } })).toBe(0);
      expect(await store.saveArtifact({ ...at, filename: "a.txt", artifact: { text: "y" } })).toBe(0);
    });

    it("refuses a version over maxArtifactBytes and a save past the session's maxScopeBytes, naming the limit", async () => {
      const store = service({ maxArtifactBytes: 8, maxScopeBytes: 12 });
      const at = key();
      const big = await refusal(
        store.saveArtifact({ ...at, filename: "big.txt", artifact: { text: "123456789" } }),
      );
      expect([big.code, big.status]).toEqual(["payload_too_large", 413]);
      expect(big.message).toMatch(/maxArtifactBytes/);
      await store.saveArtifact({ ...at, filename: "one.txt", artifact: { text: "12345678" } });
      const full = await refusal(
        store.saveArtifact({ ...at, filename: "two.txt", artifact: { text: "12345" } }),
      );
      expect([full.code, full.status]).toEqual(["quota_exceeded", 413]);
      expect(full.message).toMatch(/maxScopeBytes/);
      // Another session has a budget of its own; user: names count against the user's.
      expect(
        await store.saveArtifact({
          ...at,
          sessionId: "s2",
          filename: "two.txt",
          artifact: { text: "12345" },
        }),
      ).toBe(0);
      expect(await store.listArtifactKeys(at)).toEqual(["one.txt"]);
      // A user's `user:` names share one budget, whichever session saves them.
      await store.saveArtifact({ ...at, filename: "user:a.txt", artifact: { text: "12345678" } });
      const user = await refusal(
        store.saveArtifact({ ...at, sessionId: "s3", filename: "user:b.txt", artifact: { text: "12345" } }),
      );
      expect([user.code, user.message]).toEqual(["quota_exceeded", expect.stringMatching(/user: artifacts/)]);
    });

    it("refuses file references, session names without a session, and oversized custom metadata", async () => {
      const store = service({ maxCustomMetadataBytes: 16 });
      const at = key();
      const file = { fileData: { fileUri: "gs://bucket/x.pdf", mimeType: "application/pdf" } };
      expect((await refusal(store.saveArtifact({ ...at, filename: "x.pdf", artifact: file }))).code).toBe(
        "invalid_request",
      );
      const { sessionId: _none, ...userOnly } = at;
      expect(
        (await refusal(store.saveArtifact({ ...userOnly, filename: "x.txt", artifact: { text: "x" } }))).code,
      ).toBe("invalid_request");
      const meta = { customMetadata: { note: "far more than sixteen bytes" } };
      const error = await refusal(
        store.saveArtifact({ ...at, filename: "m.txt", artifact: { text: "m" }, ...meta }),
      );
      expect([error.code, error.message]).toEqual([
        "invalid_request",
        expect.stringMatching(/maxCustomMetadataBytes/),
      ]);
      expect(await store.listArtifactKeys(at)).toEqual([]);
    });
  });
}
