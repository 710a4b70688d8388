import { type Context, Hono } from "hono";
import { ARTIFACT_LIMITS, type ArtifactRef, type ArtifactService } from "../core/artifacts.js";
import { JsonObject, PartSchema, wireObject } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import { ID_LIMITS, idSchema } from "../core/limits.js";
import { readBody } from "./read-body.js";
import type { AppScopedEnv } from "./types.js";

/** ADK `SaveArtifactRequest`: the artifact is a genai `Part` (inline base64 data or text); camelCase or snake_case. */
export const SaveArtifactBodySchema = wireObject({
  filename: idSchema(ID_LIMITS.artifactName),
  artifact: PartSchema,
  customMetadata: JsonObject.optional(),
});

/**
 * The body cap of `POST …/artifacts`: the largest artifact `ARTIFACT_LIMITS` allows, as base64 (4 bytes
 * for every 3), with room for the JSON around it. Other requests keep `MAX_BODY_BYTES`.
 */
export const MAX_ARTIFACT_BODY_BYTES = Math.ceil((ARTIFACT_LIMITS.maxArtifactBytes * 4) / 3) + 64 * 1024;

type ArtifactsContext = Context<AppScopedEnv>;

const serviceOf = (c: ArtifactsContext): ArtifactService => {
  const service = c.var.deps.services.artifacts;
  if (service) return service;
  throw new BatonError(
    "not_supported",
    "Artifacts: not supported without an artifact service (bind an R2 bucket as ARTIFACTS in wrangler.toml).",
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

const BASE = "/apps/:app/users/:user/sessions/:session/artifacts";

/**
 * ADK's artifact routes (`adk_web_server.py`), same paths and JSON: names, save (→ `ArtifactVersion`), a
 * version's `Part`, version numbers, versions' metadata, delete. `resolveApp` and the user guard run first,
 * so an end user's token reaches only its own user's artifacts (decision 022).
 */
export const artifacts = new Hono<AppScopedEnv>()
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
    const part = await serviceOf(c).loadArtifact({ ...refOf(c), version: versionOf(c.req.query("version")) });
    if (!part) throw notFound("Artifact not found");
    return c.json(part);
  })
  .delete(`${BASE}/:artifact`, async (c) => {
    await serviceOf(c).deleteArtifact(refOf(c));
    return c.json(null);
  });
