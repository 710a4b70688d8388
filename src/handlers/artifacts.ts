import { type Context, Hono } from "hono";
import type { ArtifactLimits, ArtifactRef, ArtifactService } from "../core/artifacts.js";
import { JsonObject, PartSchema, wireObject } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import { ID_LIMITS, idSchema } from "../core/limits.js";
import { ARTIFACTS_PATH } from "./path-limits.js";
import { readBody } from "./read-body.js";
import type { AppScopedEnv } from "./types.js";

/** ADK `SaveArtifactRequest`: the artifact is a genai `Part` (inline base64 data or text); camelCase or snake_case. */
export const SaveArtifactBodySchema = wireObject({
  filename: idSchema(ID_LIMITS.artifactName),
  artifact: PartSchema,
  customMetadata: JsonObject.optional(),
});

/** What `createWorker`'s `artifacts` option takes (`r2Artifacts()` from `@baton-agents/core/cloudflare/artifacts`). */
export interface ArtifactsSupport {
  /** ADK's artifact routes. */
  routes: Hono<AppScopedEnv>;
  /** The body cap of `POST …/artifacts`: the largest version the limits allow, as base64, with room for the JSON. */
  maxBodyBytes: number;
  /** The artifact service over the env's bindings; `undefined` when the env lacks them. */
  service(env: Readonly<Record<string, unknown>>): ArtifactService | undefined;
}

/** The body cap for versions of at most `maxArtifactBytes` (4 bytes of base64 for every 3, plus 64 KiB). */
export const artifactBodyLimit = (limits: ArtifactLimits): number =>
  Math.ceil((limits.maxArtifactBytes * 4) / 3) + 64 * 1024;

type ArtifactsContext = Context<AppScopedEnv>;

const serviceIn = (c: ArtifactsContext, binding: string): ArtifactService => {
  const service = c.var.deps.services.artifacts;
  if (service) return service;
  throw new BatonError(
    "not_supported",
    `Artifacts: not supported without an artifact service (bind an R2 bucket as ${binding} in wrangler.toml).`,
  );
};

const scopeOf = (c: ArtifactsContext) => ({
  appName: c.var.app.name,
  userId: c.req.param("user") ?? "",
  sessionId: c.req.param("session") ?? "",
});

const refOf = (c: ArtifactsContext): ArtifactRef => ({
  ...scopeOf(c),
  filename: c.req.param("artifact") ?? "",
});

/** A version from the path or the query: a non-negative integer, or a 400 naming it. */
function versionOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const version = Number(raw);
  if (raw.trim() === "" || !Number.isSafeInteger(version) || version < 0)
    throw new BatonError("invalid_request", `Refused version "${raw}": a version is a non-negative integer.`);
  return version;
}

const notFound = (what: string) => new BatonError("not_found", what);

const BASE = ARTIFACTS_PATH;

/**
 * ADK's artifact routes (`adk_web_server.py`), same paths and JSON: names, save (→ `ArtifactVersion`), a
 * version's `Part`, version numbers, versions' metadata, delete. `resolveApp` and the user guard run first,
 * so an end user's token reaches only its own user's artifacts (decision 022).
 */
export const artifactRoutes = (binding: string): Hono<AppScopedEnv> => {
  const serviceOf = (c: ArtifactsContext) => serviceIn(c, binding);
  return (
    new Hono<AppScopedEnv>()
      .get(BASE, async (c) => c.json(await serviceOf(c).listArtifactKeys(scopeOf(c))))
      .post(BASE, async (c) => {
        const body = await readBody(c, SaveArtifactBodySchema);
        const ref = { ...scopeOf(c), filename: body.filename };
        const service = serviceOf(c);
        const version = await service.saveArtifact({
          ...ref,
          artifact: body.artifact,
          customMetadata: body.customMetadata,
        });
        const saved = await service.getArtifactVersion({ ...ref, version });
        if (!saved) throw new BatonError("internal", "Artifact metadata unavailable");
        return c.json(saved);
      })
      // Before `/:artifact/versions/:version`, which would take "metadata" for a version.
      .get(`${BASE}/:artifact/versions/metadata`, async (c) =>
        c.json(await serviceOf(c).listArtifactVersions(refOf(c))),
      )
      .get(`${BASE}/:artifact/versions/:version/metadata`, async (c) => {
        const version = versionOf(c.req.param("version"));
        const found = await serviceOf(c).getArtifactVersion({ ...refOf(c), version });
        if (!found) throw notFound("Artifact version not found");
        return c.json(found);
      })
      .get(`${BASE}/:artifact/versions/:version`, async (c) => {
        const version = versionOf(c.req.param("version"));
        const part = await serviceOf(c).loadArtifact({ ...refOf(c), version });
        if (!part) throw notFound("Artifact not found");
        return c.json(part);
      })
      .get(`${BASE}/:artifact/versions`, async (c) => c.json(await serviceOf(c).listVersions(refOf(c))))
      .get(`${BASE}/:artifact`, async (c) => {
        const part = await serviceOf(c).loadArtifact({
          ...refOf(c),
          version: versionOf(c.req.query("version")),
        });
        if (!part) throw notFound("Artifact not found");
        return c.json(part);
      })
      .delete(`${BASE}/:artifact`, async (c) => {
        await serviceOf(c).deleteArtifact(refOf(c));
        return c.json(null);
      })
  );
};
