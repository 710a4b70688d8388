import {
  MEMORY_SEARCH_LIMIT,
  type MemoryEntry,
  type MemoryScope,
  type MemoryService,
  memoryTerms,
  type SearchMemoryResponse,
} from "../core/memory.js";
import type { Session } from "../core/session.js";
import { directMemories, type MemoryRow, sessionMemories } from "./memory-rows.js";

/**
 * ADK's `InMemoryMemoryService` for Node and tests: each (app, user) its own list; a memory matches when
 * it shares a search term with the query (`memoryTerms`), best first by how many it shares, then newest.
 */
export class InMemoryMemoryService implements MemoryService {
  readonly #users = new Map<string, Map<string, MemoryRow>>();
  readonly #newId: () => string;

  constructor(options: { newId?: () => string } = {}) {
    this.#newId = options.newId ?? (() => crypto.randomUUID());
  }

  async addSessionToMemory(session: Session): Promise<void> {
    this.#add(session, sessionMemories(session));
  }

  async addMemories(scope: MemoryScope & { memories: readonly MemoryEntry[] }): Promise<void> {
    this.#add(scope, directMemories(scope.memories, this.#newId));
  }

  async searchMemory(
    request: MemoryScope & { query: string; limit?: number },
  ): Promise<SearchMemoryResponse> {
    const terms = memoryTerms(request.query);
    const rows = [...(this.#users.get(userKey(request))?.values() ?? [])];
    const scored = rows
      .map((row, seq) => {
        const words = new Set(memoryTerms(row.text));
        return { row, seq, score: terms.filter((t) => words.has(t)).length };
      })
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score || b.seq - a.seq);
    const limit = request.limit ?? MEMORY_SEARCH_LIMIT;
    return { memories: scored.slice(0, limit).map(({ row }) => structuredClone(row.entry)) };
  }

  async deleteMemories(scope: MemoryScope & { sessionId?: string }): Promise<void> {
    const rows = this.#users.get(userKey(scope));
    if (!rows) return;
    for (const [id, row] of rows)
      if (scope.sessionId === undefined || row.sessionId === scope.sessionId) rows.delete(id);
  }

  #add(scope: MemoryScope, rows: readonly MemoryRow[]): void {
    const key = userKey(scope);
    const stored = this.#users.get(key) ?? new Map<string, MemoryRow>();
    this.#users.set(key, stored);
    for (const row of rows) if (!stored.has(row.id)) stored.set(row.id, structuredClone(row));
  }
}

const userKey = (scope: MemoryScope): string => JSON.stringify([scope.appName, scope.userId]);
