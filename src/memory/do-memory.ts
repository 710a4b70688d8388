import {
  MEMORY_SEARCH_LIMIT,
  type MemoryEntry,
  MemoryEntrySchema,
  type MemoryScope,
  type MemoryService,
  memoryTerms,
  type SearchMemoryResponse,
} from "../core/memory.js";
import type { Session } from "../core/session.js";
import type { UserObject } from "../objects/user-object.js";
import { userObjectName } from "../storage/object-names.js";
import { remote } from "../storage/rpc-result.js";
import { directMemories, type MemoryRow, sessionMemories } from "./memory-rows.js";

/** The binding the memory service needs: the user objects (wrangler `USERS`), shared with the session store. */
export interface MemoryEnv {
  USERS: DurableObjectNamespace<UserObject>;
}

/**
 * ADK's memory service in each user's Durable Object (the one that keeps `user:` state): SQLite with an
 * FTS5 index, so a search is one call to one object and works offline. One user's memories live in their
 * own object: no query can reach another's.
 */
export class DurableObjectMemoryService implements MemoryService {
  readonly #env: MemoryEnv;

  constructor(env: MemoryEnv) {
    this.#env = env;
  }

  async addSessionToMemory(session: Session): Promise<void> {
    await this.#store(session, sessionMemories(session));
  }

  async addMemories(scope: MemoryScope & { memories: readonly MemoryEntry[] }): Promise<void> {
    await this.#store(
      scope,
      directMemories(scope.memories, () => crypto.randomUUID()),
    );
  }

  async searchMemory(
    request: MemoryScope & { query: string; limit?: number },
  ): Promise<SearchMemoryResponse> {
    const terms = memoryTerms(request.query);
    if (terms.length === 0) return { memories: [] };
    const found = await this.#user(request).searchMemories(terms, request.limit ?? MEMORY_SEARCH_LIMIT);
    return { memories: found.map((json) => MemoryEntrySchema.parse(JSON.parse(json))) };
  }

  async deleteMemories(scope: MemoryScope & { sessionId?: string }): Promise<void> {
    await this.#user(scope).forgetMemories(scope.sessionId ?? null);
  }

  async #store(scope: MemoryScope, rows: readonly MemoryRow[]): Promise<void> {
    if (rows.length === 0) return;
    const stored = rows.map((row) => ({
      id: row.id,
      sessionId: row.sessionId,
      entryJson: JSON.stringify(row.entry),
      text: row.text,
    }));
    await this.#user(scope).addMemories(stored);
  }

  /** The same object the session store keeps the user's state in. */
  #user(scope: MemoryScope) {
    return remote(this.#env.USERS.getByName(userObjectName(scope.appName, scope.userId)));
  }
}
