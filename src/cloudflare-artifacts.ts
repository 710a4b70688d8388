/**
 * `@baton-agents/core/cloudflare/artifacts`: ADK's artifacts for `createWorker` (`artifacts: r2Artifacts()`),
 * kept in an R2 bucket and served at ADK's seven routes (the dev UI's Artifacts tab). Its own entry, so a
 * Worker without artifacts bundles none of it; without it the artifact routes answer 501.
 * docs/services.md, decision 032.
 */
import { BlobArtifactService } from "./artifacts/blob-artifact-service.js";
import { type ArtifactLedgerEnv, durableObjectLedger } from "./artifacts/do-artifact-ledger.js";
import { type ArtifactBucket, r2Blobs } from "./artifacts/r2-blobs.js";
import { ARTIFACT_LIMITS, type ArtifactLimits, type ArtifactService } from "./core/artifacts.js";
import { type ArtifactsSupport, artifactBodyLimit, artifactRoutes } from "./handlers/artifacts.js";

export { BlobArtifactService } from "./artifacts/blob-artifact-service.js";
export type { ArtifactBlobs } from "./artifacts/blobs.js";
export { type ArtifactLedgerEnv, durableObjectLedger } from "./artifacts/do-artifact-ledger.js";
export { type ArtifactBucket, r2Blobs } from "./artifacts/r2-blobs.js";
export type { ArtifactsSupport } from "./handlers/artifacts.js";

const isBucket = (value: unknown): value is ArtifactBucket =>
  typeof value === "object" &&
  value !== null &&
  ["put", "get", "list", "delete"].every((m) => typeof Reflect.get(value, m) === "function");

const isUsers = (value: unknown): value is ArtifactLedgerEnv["USERS"] =>
  typeof value === "object" && value !== null && typeof Reflect.get(value, "getByName") === "function";

/**
 * Artifacts in the R2 bucket bound as `binding` (default `ARTIFACTS`, wrangler `[[r2_buckets]]`), one
 * version per object; `limits` overrides `ARTIFACT_LIMITS`. Version numbers and budgets are decided in each
 * user's Durable Object (`USERS`, which every Worker has), so concurrent saves neither share a number nor
 * overshoot a budget (decision 048). A Worker whose env lacks the bucket answers
 * the artifact routes 501 naming it, and tools that save get ADK's "Artifact service is not initialized".
 * @example
 * export default createWorker({ apps: [demoApp], artifacts: r2Artifacts() });
 */
export function r2Artifacts(
  options: { binding?: string; limits?: Partial<ArtifactLimits> } = {},
): ArtifactsSupport {
  const binding = options.binding ?? "ARTIFACTS";
  const limits: ArtifactLimits = { ...ARTIFACT_LIMITS, ...options.limits };
  // One service per bucket binding: the env, and so the binding, lives as long as the isolate.
  const services = new WeakMap<ArtifactBucket, ArtifactService>();
  return {
    routes: artifactRoutes(binding),
    maxBodyBytes: artifactBodyLimit(limits),
    service(env) {
      const bucket = env[binding];
      if (!isBucket(bucket)) return undefined;
      const users = env.USERS;
      const ledger = isUsers(users) ? { ledger: durableObjectLedger({ USERS: users }) } : {};
      const made = services.get(bucket) ?? new BlobArtifactService(r2Blobs(bucket), { limits, ...ledger });
      services.set(bucket, made);
      return made;
    },
  };
}
