import * as z from "zod";
import type { Part } from "./content.js";
import { BatonError } from "./errors.js";

/**
 * ADK's artifact service as a port: named, versioned files (a genai `Part`: inline bytes or text) kept per
 * session, or per user for names starting `user:` (ADK-SEMANTICS §1.2 `artifactDelta`). Versions count
 * from 0 and only grow. Adapters: `BlobArtifactService` over R2 (Workers) or memory (Node).
 */

/** A session's artifact, or a user's when the name starts `user:` (then `sessionId` is not used). */
export interface ArtifactRef {
  appName: string;
  userId: string;
  /** Required for a session-scoped name; ignored for a `user:` name. */
  sessionId?: string | undefined;
  filename: string;
}

/** Where a session's artifacts are listed: with a session, its own names and the user's `user:` names. */
export interface ArtifactScopeKey {
  appName: string;
  userId: string;
  sessionId?: string | undefined;
}

/** ADK's `ArtifactVersion`: one saved version's metadata (camelCase on the wire, `createTime` in float seconds). */
export const ArtifactVersionSchema = z.object({
  version: z.number().int().nonnegative(),
  canonicalUri: z.string(),
  customMetadata: z.record(z.string(), z.unknown()),
  createTime: z.number(),
  mimeType: z.string().optional(),
});
export type ArtifactVersion = z.infer<typeof ArtifactVersionSchema>;

export interface SaveArtifactRequest extends ArtifactRef {
  artifact: Part;
  customMetadata?: Record<string, unknown> | undefined;
}

export interface ArtifactService {
  /** Saves a new version and returns its number (the first is 0). Refuses what breaks `ARTIFACT_LIMITS`. */
  saveArtifact(request: SaveArtifactRequest): Promise<number>;
  /** The given version, or the latest; `undefined` when there is none. */
  loadArtifact(ref: ArtifactRef & { version?: number | undefined }): Promise<Part | undefined>;
  /** The session's names and the user's `user:` names, sorted. */
  listArtifactKeys(scope: ArtifactScopeKey): Promise<string[]>;
  /** The version numbers, ascending; `[]` for an unknown name. */
  listVersions(ref: ArtifactRef): Promise<number[]>;
  /** Every version's metadata, ascending. */
  listArtifactVersions(ref: ArtifactRef): Promise<ArtifactVersion[]>;
  /** One version's metadata (the latest when `version` is left out); `undefined` when there is none. */
  getArtifactVersion(
    ref: ArtifactRef & { version?: number | undefined },
  ): Promise<ArtifactVersion | undefined>;
  /** Deletes every version; deleting an unknown name does nothing. */
  deleteArtifact(ref: ArtifactRef): Promise<void>;
  /** Deletes every session-scoped artifact of a session (its `user:` ones stay): a deleted session's files go too. */
  deleteSessionArtifacts?(scope: Required<ArtifactScopeKey>): Promise<void>;
}

/** ADK's prefix of user-scoped artifact names. */
export const USER_ARTIFACT_PREFIX = "user:";

export const isUserScoped = (filename: string): boolean => filename.startsWith(USER_ARTIFACT_PREFIX);

/**
 * How much an artifact store holds. Named so refusals can say which limit a save broke: R2 takes objects
 * of up to 5 GB, but an artifact travels as base64 in a JSON body and a model request, so Baton keeps
 * each small; the per-scope budget stops one session (or one user's `user:` files) from growing unbounded.
 */
export interface ArtifactLimits {
  /** Bytes of one version (decoded inline data, or UTF-8 text). */
  maxArtifactBytes: number;
  /** Bytes of every version of every artifact of one session; `user:` artifacts count against their user's. */
  maxScopeBytes: number;
  /** Bytes of one version's custom metadata as JSON (R2 keeps at most 2 KiB of metadata per object). */
  maxCustomMetadataBytes: number;
}

export const ARTIFACT_LIMITS: ArtifactLimits = {
  maxArtifactBytes: 4 * 1024 * 1024,
  maxScopeBytes: 64 * 1024 * 1024,
  maxCustomMetadataBytes: 1024,
};

/** The MIME type ADK records for a part: the inline data's, `text/plain` for text. */
export function mimeTypeOf(part: Part): string {
  if (part.inlineData) return part.inlineData.mimeType;
  if (part.text !== undefined) return "text/plain";
  return "application/octet-stream";
}

/** 400 unless `part` is something an artifact can hold: inline data or text (no `fileData`, as ADK's GCS service). */
export function assertStorablePart(filename: string, part: Part): void {
  if (part.inlineData || part.text !== undefined) return;
  throw new BatonError(
    "invalid_request",
    `Artifact "${filename}" must be a part with inlineData or text (file references and calls are not stored).`,
  );
}

/** The session id a session-scoped name needs (ADK raises the same). */
export function sessionOf(ref: ArtifactRef): string | undefined {
  if (isUserScoped(ref.filename)) return undefined;
  if (ref.sessionId === undefined || ref.sessionId === "")
    throw new BatonError(
      "invalid_request",
      `Artifact "${ref.filename}" is session-scoped: a session id is required.`,
    );
  return ref.sessionId;
}
