import {
  ARTIFACT_LIMITS,
  type ArtifactLimits,
  type ArtifactRef,
  type ArtifactScopeKey,
  type ArtifactService,
  type ArtifactVersion,
  assertStorablePart,
  isUserScoped,
  mimeTypeOf,
  type SaveArtifactRequest,
  sessionOf,
} from "../core/artifacts.js";
import type { Part } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import { parseKey, scopePrefix, versionKey, versionsPrefix } from "./artifact-keys.js";
import {
  type ArtifactLedger,
  type LedgerScope,
  type LedgerVersion,
  memoryLedger,
} from "./artifact-ledger.js";
import { base64ToBytes, bytesToBase64 } from "./base64.js";
import { type ArtifactBlobs, type ListedBlob, memoryBlobs } from "./blobs.js";

export interface BlobArtifactServiceOptions {
  limits?: Partial<ArtifactLimits>;
  /** Milliseconds since the epoch, for `createTime` (tests pin it). */
  now?: () => number;
  /**
   * Where version numbers and budgets are decided (decision 048). Default: this isolate's memory, right for
   * blobs in memory; blobs shared between isolates need a shared one (`r2Artifacts` gives the user's object).
   */
  ledger?: ArtifactLedger;
}

/** How many times a save takes another version after finding a blob at the one it reserved. */
const MAX_SAVE_ATTEMPTS = 8;
/** Seconds a client waits before trying a save again that kept finding blobs in its way. */
const RETRY_SECONDS = 1;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/**
 * ADK's artifact service over any `ArtifactBlobs`: one blob per version, its bytes as they are (decoded
 * inline data, or UTF-8 text) and its ADK metadata beside them, so R2's console shows real files. Versions
 * are numbered by listing the name's blobs; the store's create-once write settles two concurrent saves.
 */
export class BlobArtifactService implements ArtifactService {
  readonly limits: ArtifactLimits;
  readonly #blobs: ArtifactBlobs;
  readonly #now: () => number;
  readonly #ledger: ArtifactLedger;

  constructor(blobs: ArtifactBlobs, options: BlobArtifactServiceOptions = {}) {
    this.#blobs = blobs;
    this.limits = { ...ARTIFACT_LIMITS, ...options.limits };
    this.#now = options.now ?? (() => Date.now());
    this.#ledger = options.ledger ?? memoryLedger();
  }

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const { filename, artifact } = request;
    assertStorablePart(filename, artifact);
    const scopeSession = sessionOf(request);
    const inline = artifact.inlineData;
    const body = inline
      ? base64ToBytes(inline.data, `Artifact "${filename}"`)
      : utf8.encode(artifact.text ?? "");
    const { maxArtifactBytes, maxScopeBytes, maxCustomMetadataBytes } = this.limits;
    if (body.byteLength > maxArtifactBytes)
      throw new BatonError(
        "payload_too_large",
        `Artifact "${filename}" has ${body.byteLength} bytes; an artifact version holds at most ${maxArtifactBytes} (maxArtifactBytes).`,
      );
    const custom = request.customMetadata ?? {};
    const customJson = JSON.stringify(custom);
    if (utf8.encode(customJson).byteLength > maxCustomMetadataBytes)
      throw new BatonError(
        "invalid_request",
        `Artifact "${filename}": customMetadata is at most ${maxCustomMetadataBytes} bytes of JSON (maxCustomMetadataBytes).`,
      );
    const meta: Record<string, string> = {
      kind: inline ? "inline" : "text",
      mimeType: mimeTypeOf(artifact),
      createTime: String(this.#now() / 1000),
      ...(Object.keys(custom).length > 0 ? { customMetadata: customJson } : {}),
      ...(inline?.displayName === undefined ? {} : { displayName: inline.displayName }),
    };
    const scope: LedgerScope = {
      appName: request.appName,
      userId: request.userId,
      sessionId: isUserScoped(filename) ? null : (scopeSession ?? ""),
    };
    const reservation = { scope, filename, bytes: body.byteLength, maxBytes: maxScopeBytes };
    let listed: LedgerVersion[] | undefined;
    let taken: { version: number; bytes: number } | undefined;
    for (let attempt = 0; attempt < MAX_SAVE_ATTEMPTS; ) {
      const outcome = await this.#ledger.reserve({
        ...reservation,
        ...(listed ? { listed } : {}),
        ...(taken ? { taken } : {}),
      });
      if (outcome.kind === "unseen") {
        // The ledger has not seen this scope: what the store already holds counts from now on.
        listed = await this.#listed(scopePrefix(request, scopeSession));
        continue;
      }
      if (outcome.kind === "over") throw this.#over(request, scopeSession, body.byteLength, outcome.used);
      attempt++;
      const { version } = outcome;
      const landed = await this.#blobs
        .create(versionKey(request, version), body, meta)
        .catch(async (error) => {
          await this.#ledger.settle(scope, filename, version, false);
          throw error;
        });
      if (landed) {
        await this.#ledger.settle(scope, filename, version, true);
        return version;
      }
      // A blob the ledger did not know holds that version (saved before the ledger, or by a save cut off
      // before it settled): it is recorded with its size, and the next reservation takes the next number.
      const [found] = await this.#blobs.list(versionKey(request, version));
      taken = { version, bytes: found?.size ?? 0 };
    }
    throw new BatonError(
      "storage_busy",
      `Artifact "${filename}": the store kept answering with other saves' versions; save again.`,
      {
        retryAfterSeconds: RETRY_SECONDS,
      },
    );
  }

  /** The versions a scope's blobs hold, for a ledger that has not seen the scope. */
  async #listed(prefix: string): Promise<LedgerVersion[]> {
    return (await this.#blobs.list(prefix)).flatMap((blob) => {
      const parsed = parseKey(prefix, blob.key);
      return parsed ? [{ ...parsed, bytes: blob.size }] : [];
    });
  }

  #over(ref: ArtifactRef, scopeSession: string | undefined, bytes: number, used: number): BatonError {
    const whose = isUserScoped(ref.filename)
      ? `user "${ref.userId}"'s user: artifacts`
      : `session "${scopeSession}"`;
    return new BatonError(
      "quota_exceeded",
      `Artifact "${ref.filename}" (${bytes} bytes) does not fit: ${whose} already keep ${used} of ${this.limits.maxScopeBytes} bytes (maxScopeBytes).`,
    );
  }

  async loadArtifact(ref: ArtifactRef & { version?: number | undefined }): Promise<Part | undefined> {
    const version = ref.version ?? (await this.listVersions(ref)).at(-1);
    if (version === undefined) return undefined;
    const blob = await this.#blobs.get(versionKey(ref, version));
    if (blob === undefined) return undefined;
    if (blob.meta.kind === "text") return { text: fromUtf8.decode(blob.body) };
    const displayName = blob.meta.displayName;
    return {
      inlineData: {
        mimeType: blob.meta.mimeType ?? "application/octet-stream",
        data: bytesToBase64(blob.body),
        ...(displayName === undefined ? {} : { displayName }),
      },
    };
  }

  async listArtifactKeys(scope: ArtifactScopeKey): Promise<string[]> {
    const prefixes = [scopePrefix(scope, undefined)];
    if (scope.sessionId !== undefined && scope.sessionId !== "")
      prefixes.push(scopePrefix(scope, scope.sessionId));
    const names = new Set<string>();
    for (const prefix of prefixes) {
      for (const blob of await this.#blobs.list(prefix)) {
        const parsed = parseKey(prefix, blob.key);
        if (parsed) names.add(parsed.filename);
      }
    }
    return [...names].sort();
  }

  async listVersions(ref: ArtifactRef): Promise<number[]> {
    return (await this.#versions(ref)).map(({ version }) => version);
  }

  async listArtifactVersions(ref: ArtifactRef): Promise<ArtifactVersion[]> {
    return (await this.#versions(ref)).map(({ version, blob }) => this.#metadata(blob, version));
  }

  async getArtifactVersion(
    ref: ArtifactRef & { version?: number | undefined },
  ): Promise<ArtifactVersion | undefined> {
    const versions = await this.#versions(ref);
    const found =
      ref.version === undefined ? versions.at(-1) : versions.find((v) => v.version === ref.version);
    return found && this.#metadata(found.blob, found.version);
  }

  async deleteArtifact(ref: ArtifactRef): Promise<void> {
    const blobs = await this.#blobs.list(versionsPrefix(ref));
    await this.#blobs.delete(blobs.map((blob) => blob.key));
    // After the blobs: a ledger that still counts a deleted version errs on the budget's safe side.
    const sessionId = isUserScoped(ref.filename) ? null : (sessionOf(ref) ?? "");
    await this.#ledger.forget({ appName: ref.appName, userId: ref.userId, sessionId }, ref.filename);
  }

  async deleteSessionArtifacts(scope: Required<ArtifactScopeKey>): Promise<void> {
    const blobs = await this.#blobs.list(scopePrefix(scope, scope.sessionId));
    await this.#blobs.delete(blobs.map((blob) => blob.key));
    await this.#ledger.forget({
      appName: scope.appName,
      userId: scope.userId,
      sessionId: scope.sessionId ?? "",
    });
  }

  /** The name's versions, ascending, each with its listed blob. */
  async #versions(ref: ArtifactRef): Promise<{ version: number; blob: ListedBlob }[]> {
    const scope = scopePrefix(ref, sessionOf(ref));
    return versionsOf(await this.#blobs.list(versionsPrefix(ref)), scope, ref.filename);
  }

  #metadata(blob: ListedBlob, version: number): ArtifactVersion {
    const { mimeType, createTime, customMetadata } = blob.meta;
    return {
      version,
      canonicalUri: `${this.#blobs.scheme}://${blob.key}`,
      customMetadata: customMetadata === undefined ? {} : parseMetadata(customMetadata),
      createTime: Number(createTime ?? 0),
      ...(mimeType === undefined ? {} : { mimeType }),
    };
  }
}

/** The versions of `filename` among listed blobs of a scope, ascending. */
function versionsOf(blobs: readonly ListedBlob[], prefix: string, filename: string) {
  return blobs
    .flatMap((blob) => {
      const parsed = parseKey(prefix, blob.key);
      return parsed && parsed.filename === filename ? [{ version: parsed.version, blob }] : [];
    })
    .sort((a, b) => a.version - b.version);
}

function parseMetadata(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  // SAFETY: written by `saveArtifact` from a JSON object, and nothing else writes these blobs.
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * ADK's `InMemoryArtifactService`: the blob-backed service over a `Map`, for Node and tests.
 * @example
 * const runner = new Runner({ app, sessionStore, services: { artifacts: new InMemoryArtifactService() } });
 */
export class InMemoryArtifactService extends BlobArtifactService {
  constructor(options: BlobArtifactServiceOptions = {}) {
    super(memoryBlobs(), options);
  }
}
