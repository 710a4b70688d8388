/**
 * The Worker's eval document stores: an R2 bucket when the Worker has one for them, else the app's own
 * Durable Object (its SQLite `eval_documents` table). Both keep the JSON text `eval-sets.ts` writes.
 */
import { BatonError } from "../core/errors.js";
import type { AppObject } from "../objects/app-object.js";
import { appObjectName } from "../storage/object-names.js";
import { remote } from "../storage/rpc-result.js";
import {
  assertDocumentSize,
  type EvalDocumentKind,
  type EvalDocumentStore,
  type IdPage,
} from "./eval-store.js";

/** The bindings the eval stores look for, in order of preference. */
export interface EvalStoreEnv {
  /** A bucket of its own for eval sets and results. */
  EVALS?: R2Bucket;
  /** The artifacts bucket, shared under the `evals/` prefix when there is no `EVALS`. */
  ARTIFACTS?: R2Bucket;
  APPS?: DurableObjectNamespace<AppObject>;
}

/** ADK's local file names: `<id>.evalset.json` and `<id>.evalset_result.json`. */
const SUFFIX: Record<EvalDocumentKind, string> = { set: ".evalset.json", result: ".evalset_result.json" };
const folder = (appName: string, kind: EvalDocumentKind) =>
  `evals/${appName}/${kind === "set" ? "sets" : "results"}/`;

/** Eval documents as R2 objects `evals/<app>/sets/<id>.evalset.json` and `…/results/<id>.evalset_result.json`. */
export class R2EvalStore implements EvalDocumentStore {
  constructor(private readonly bucket: R2Bucket) {}

  private key(appName: string, kind: EvalDocumentKind, id: string): string {
    // closed key: `kind` is an `EvalDocumentKind` ("set" | "result").
    return `${folder(appName, kind)}${id}${SUFFIX[kind]}`;
  }

  async get(appName: string, kind: EvalDocumentKind, id: string): Promise<string | null> {
    const object = await this.bucket.get(this.key(appName, kind, id));
    return object ? object.text() : null;
  }

  async put(appName: string, kind: EvalDocumentKind, id: string, json: string): Promise<void> {
    assertDocumentSize(kind, id, json);
    await this.bucket.put(this.key(appName, kind, id), json, {
      httpMetadata: { contentType: "application/json" },
    });
  }

  async delete(appName: string, kind: EvalDocumentKind, id: string): Promise<boolean> {
    const key = this.key(appName, kind, id);
    if (!(await this.bucket.head(key))) return false;
    await this.bucket.delete(key);
    return true;
  }

  /**
   * In R2's key order; a page (`page.limit`) starts after the key of `page.after` and takes one R2 list per
   * 1,000 ids. Without a limit every id, sorted, as ADK's file store lists them.
   */
  async list(appName: string, kind: EvalDocumentKind, page: IdPage = {}): Promise<string[]> {
    const prefix = folder(appName, kind);
    const ids: string[] = [];
    const startAfter = page.after === undefined ? {} : { startAfter: this.key(appName, kind, page.after) };
    let cursor: string | undefined;
    do {
      const limit = page.limit === undefined ? {} : { limit: Math.min(1000, page.limit - ids.length) };
      const listed = await this.bucket.list({
        prefix,
        ...startAfter,
        ...limit,
        ...(cursor ? { cursor } : {}),
      });
      // closed key: `kind` is an `EvalDocumentKind` ("set" | "result").
      const suffix = SUFFIX[kind];
      for (const { key } of listed.objects)
        if (key.endsWith(suffix)) ids.push(key.slice(prefix.length, -suffix.length));
      cursor =
        listed.truncated && (page.limit === undefined || ids.length < page.limit) ? listed.cursor : undefined;
    } while (cursor);
    return page.limit === undefined ? ids.sort() : ids.slice(0, page.limit);
  }
}

/** Eval documents in the app's Durable Object (one per app, as its `app:` state). */
export class DurableObjectEvalStore implements EvalDocumentStore {
  constructor(private readonly apps: DurableObjectNamespace<AppObject>) {}

  private app(appName: string) {
    return remote(this.apps.getByName(appObjectName(appName)));
  }

  get(appName: string, kind: EvalDocumentKind, id: string): Promise<string | null> {
    return this.app(appName).evalDocument(kind, id);
  }

  async put(appName: string, kind: EvalDocumentKind, id: string, json: string): Promise<void> {
    assertDocumentSize(kind, id, json);
    await this.app(appName).putEvalDocument(kind, id, json);
  }

  delete(appName: string, kind: EvalDocumentKind, id: string): Promise<boolean> {
    return this.app(appName).deleteEvalDocument(kind, id);
  }

  list(appName: string, kind: EvalDocumentKind, page: IdPage = {}): Promise<string[]> {
    return this.app(appName).listEvalDocuments(kind, page.after, page.limit);
  }
}

/** The Worker's eval store: `EVALS`, else `ARTIFACTS`, else the `APPS` objects; 501 with none of them. */
export function evalStoreOf(env: EvalStoreEnv): EvalDocumentStore {
  const bucket = env.EVALS ?? env.ARTIFACTS;
  if (bucket) return new R2EvalStore(bucket);
  if (env.APPS) return new DurableObjectEvalStore(env.APPS);
  throw new BatonError(
    "not_supported",
    "Evaluations need somewhere to keep eval sets: an R2 bucket bound as EVALS or ARTIFACTS, or the APPS Durable Object binding.",
  );
}
