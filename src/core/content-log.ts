import type { Content } from "./content.js";

/**
 * A list of contents that only grows (what a session's history gave one agent, kept across requests),
 * with what its readers derive from it in order (a model request's prompt messages), kept by each
 * reader under its own symbol. Readers extend what they derived by the contents added since.
 */
export interface ContentLog {
  readonly contents: readonly Content[];
  readonly derived: Map<symbol, unknown>;
}

const LOG = Symbol("content log");

/**
 * Marks `contents`, a copy of the log's first `contents.length` contents, as read from `log`, and freezes
 * the array: a reader may then take it as that prefix (`logOf`), since nobody can change it. Whoever must
 * change a request's contents copies them first (`editableContents`).
 */
export function readFromLog(contents: Content[], log: ContentLog): Content[] {
  Object.defineProperty(contents, LOG, { value: log, enumerable: false });
  return Object.freeze(contents) as Content[]; // SAFETY: frozen so that no reader changes it; the type stays the request's.
}

/** The log `contents` is a prefix of, when it was handed out by `readFromLog` and still is that prefix. */
export function logOf(contents: readonly Content[]): ContentLog | undefined {
  const found: unknown = Reflect.get(contents, LOG);
  if (typeof found !== "object" || found === null || !Object.isFrozen(contents)) return undefined;
  const log = found as ContentLog; // SAFETY: only `readFromLog` sets it, to a `ContentLog`.
  const n = contents.length;
  return n <= log.contents.length && (n === 0 || contents[n - 1] === log.contents[n - 1]) ? log : undefined;
}
