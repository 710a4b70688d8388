/**
 * Where eval sets and their results are kept: a small port of JSON documents per app and kind, with three
 * adapters: R2 (`r2-eval-store.ts`), the app's Durable Object SQLite (`do-eval-store.ts`) and memory (here,
 * for Node and `npm run eval`). The eval set operations ADK's routes need are built on it in `eval-sets.ts`,
 * so every adapter only stores text.
 */
import { BatonError } from "../core/errors.js";
import { utf8Length } from "../runner/utf8-length.js";

export type EvalDocumentKind = "set" | "result";

export interface EvalDocumentStore {
  /** The document's JSON text, or `null`. */
  get(appName: string, kind: EvalDocumentKind, id: string): Promise<string | null>;
  /** Creates or replaces the document. */
  put(appName: string, kind: EvalDocumentKind, id: string, json: string): Promise<void>;
  /** Whether there was a document to delete. */
  delete(appName: string, kind: EvalDocumentKind, id: string): Promise<boolean>;
  /**
   * The ids of the app's documents of `kind` in the store's order (sorted, or R2's key order), those after
   * `page.after` only and at most `page.limit` of them when given (decision 046).
   */
  list(appName: string, kind: EvalDocumentKind, page?: IdPage): Promise<string[]>;
}

/** Where a page of ids starts (after this id) and how many it holds at most. */
export interface IdPage {
  after?: string | undefined;
  limit?: number | undefined;
}

/**
 * The largest eval set or result document kept, in UTF-8 bytes: under a Durable Object SQLite row's 2 MB,
 * and under the 1 MiB a request body may carry, so any set a client can send can be stored.
 */
export const MAX_EVAL_DOCUMENT_BYTES = 1024 * 1024;

/** 413 when `json` is over the document limit; says what it was. */
export function assertDocumentSize(kind: EvalDocumentKind, id: string, json: string): void {
  const bytes = utf8Length(json);
  if (bytes > MAX_EVAL_DOCUMENT_BYTES)
    throw new BatonError(
      "payload_too_large",
      `The eval ${kind === "set" ? "set" : "result"} "${id}" would be ${bytes} bytes; the limit is ${MAX_EVAL_DOCUMENT_BYTES}.`,
    );
}

/** Every document in a map: what `npm run eval` and the Node tests use. */
export class InMemoryEvalStore implements EvalDocumentStore {
  private readonly docs = new Map<string, string>();
  private static key = (appName: string, kind: EvalDocumentKind, id: string) =>
    JSON.stringify([appName, kind, id]);

  async get(appName: string, kind: EvalDocumentKind, id: string): Promise<string | null> {
    return this.docs.get(InMemoryEvalStore.key(appName, kind, id)) ?? null;
  }

  async put(appName: string, kind: EvalDocumentKind, id: string, json: string): Promise<void> {
    assertDocumentSize(kind, id, json);
    this.docs.set(InMemoryEvalStore.key(appName, kind, id), json);
  }

  async delete(appName: string, kind: EvalDocumentKind, id: string): Promise<boolean> {
    return this.docs.delete(InMemoryEvalStore.key(appName, kind, id));
  }

  async list(appName: string, kind: EvalDocumentKind, page: IdPage = {}): Promise<string[]> {
    const ids: string[] = [];
    for (const key of this.docs.keys()) {
      // SAFETY: every key is the JSON of a [app, kind, id] triple written by `key`.
      const [app, k, id] = JSON.parse(key) as [string, string, string];
      if (app === appName && k === kind && (page.after === undefined || id > page.after)) ids.push(id);
    }
    return ids.sort().slice(0, page.limit);
  }
}
