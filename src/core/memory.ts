import * as z from "zod";
import { type Content, ContentSchema } from "./content.js";
import type { Session } from "./session.js";

/**
 * ADK's memory service as a port: what a user said in past sessions, searchable by a query, per (app,
 * user) — one user's memories are never another's. Adapters: the user's Durable Object with SQLite
 * full-text search (Workers), in memory (Node), Vectorize with Workers AI embeddings (opt-in).
 */

/** ADK's `MemoryEntry`: a remembered piece of a conversation. `timestamp` is ISO 8601, as ADK formats it. */
export const MemoryEntrySchema = z.object({
  content: ContentSchema,
  author: z.string().optional(),
  timestamp: z.string().optional(),
  id: z.string().optional(),
  customMetadata: z.record(z.string(), z.unknown()).optional(),
});
export type MemoryEntry = z.infer<typeof MemoryEntrySchema>;

/** ADK's `SearchMemoryResponse`. */
export interface SearchMemoryResponse {
  memories: MemoryEntry[];
}

export interface MemoryScope {
  appName: string;
  userId: string;
}

export interface MemoryService {
  /** Adds the session's events that say something (text) to its user's memory; adding one twice adds nothing new. */
  addSessionToMemory(session: Session): Promise<void>;
  /** Adds entries directly (ADK `add_memory`); an entry with the `id` of a stored one replaces nothing and is skipped. */
  addMemories(scope: MemoryScope & { memories: readonly MemoryEntry[] }): Promise<void>;
  /** The user's memories that match `query`, best first, at most `limit` (default `MEMORY_SEARCH_LIMIT`). */
  searchMemory(request: MemoryScope & { query: string; limit?: number }): Promise<SearchMemoryResponse>;
  /** Forgets one session's memories, or all of the user's when `sessionId` is left out. */
  deleteMemories(scope: MemoryScope & { sessionId?: string }): Promise<void>;
}

/** How many memories a search answers at most unless told otherwise. */
export const MEMORY_SEARCH_LIMIT = 20;

/**
 * Words too common to tell memories apart ("what did I say about my cat" should find the cat, not every
 * sentence with "I"). ADK's in-memory service matches any shared word; Baton's stores skip these.
 */
const STOP_WORDS = new Set(
  (
    "a an and are as at be but by can could did do does for from had has have he her his how i if in into " +
    "is it its me my no not of on or our she so than that the their them then there these they this to " +
    "us was we were what when where which who why will with would you your about tell told said say"
  ).split(" "),
);

/** A text's search terms: lower-cased runs of letters and digits, stop words left out, each once. */
export function memoryTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => !STOP_WORDS.has(w)))];
}

/** The text a memory is searched by: its non-thought text parts, one per line. */
export const memoryText = (content: Content): string =>
  (content.parts ?? [])
    .filter((p) => p.text !== undefined && !p.thought)
    .map((p) => p.text)
    .join("\n");
