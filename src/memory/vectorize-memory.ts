import * as z from "zod";
import { BatonError } from "../core/errors.js";
import {
  MEMORY_SEARCH_LIMIT,
  type MemoryEntry,
  MemoryEntrySchema,
  type MemoryScope,
  type MemoryService,
  type SearchMemoryResponse,
} from "../core/memory.js";
import type { Session } from "../core/session.js";
import { directMemories, type MemoryRow, sessionMemories } from "./memory-rows.js";

/** The part of a Vectorize index binding (wrangler `[[vectorize]]`) the service uses. */
export type MemoryIndex = Pick<Vectorize, "upsert" | "query" | "deleteByIds">;

/** The part of the Workers AI binding (wrangler `[ai]`) the service uses: text embeddings. */
export interface EmbeddingModel {
  run(model: string, inputs: { text: string[] }): Promise<unknown>;
}

export interface VectorizeMemoryOptions {
  index: MemoryIndex;
  ai: EmbeddingModel;
  /** A Workers AI text-embedding model whose dimensions the index was created with. Default bge-base (768). */
  model?: string;
  /** Matches scoring below this (cosine similarity) are left out. Default 0.55. */
  minScore?: number;
}

export const DEFAULT_EMBEDDING_MODEL = "@cf/baai/bge-base-en-v1.5";
/** Workers AI embeds at most this many texts per call. */
const EMBED_BATCH = 100;
/** Vectorize answers at most 20 matches with their metadata, and deletes by id at most 1,000 at a time. */
const MAX_TOP_K_WITH_METADATA = 20;
const ID_QUERY_TOP_K = 100;
/** A memory's entry is kept in the vector's metadata (10 KiB at most): longer texts are cut. */
const MAX_ENTRY_TEXT = 6000;

const EmbeddingsSchema = z.object({ data: z.array(z.array(z.number())) });

const hex = async (text: string): Promise<string> => {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
};

/**
 * ADK's memory service over Vectorize and Workers AI embeddings: semantic search ("my cat's name" finds
 * "I adopted a kitten called Miso"), behind the same port as the default SQLite store. Each (app, user)
 * is a Vectorize namespace (the SHA-256 of the pair), so a query never reaches another user's vectors.
 * Deleting a session's memories needs a metadata index on `sessionId` (docs/services.md). Neither binding
 * runs offline: `npm run dev` and the tests use the Durable Object store.
 * @example
 * createWorker({ apps, memory: vectorizeMemory({ index: "MEMORY_INDEX", ai: "AI" }) });
 */
export class VectorizeMemoryService implements MemoryService {
  readonly #index: MemoryIndex;
  readonly #ai: EmbeddingModel;
  readonly #model: string;
  readonly #minScore: number;

  constructor(options: VectorizeMemoryOptions) {
    this.#index = options.index;
    this.#ai = options.ai;
    this.#model = options.model ?? DEFAULT_EMBEDDING_MODEL;
    this.#minScore = options.minScore ?? 0.55;
  }

  async addSessionToMemory(session: Session): Promise<void> {
    await this.#upsert(session, sessionMemories(session));
  }

  async addMemories(scope: MemoryScope & { memories: readonly MemoryEntry[] }): Promise<void> {
    await this.#upsert(
      scope,
      directMemories(scope.memories, () => crypto.randomUUID()),
    );
  }

  async searchMemory(
    request: MemoryScope & { query: string; limit?: number },
  ): Promise<SearchMemoryResponse> {
    if (request.query.trim() === "") return { memories: [] };
    const [vector] = await this.#embed([request.query]);
    if (!vector) return { memories: [] };
    const topK = Math.min(request.limit ?? MEMORY_SEARCH_LIMIT, MAX_TOP_K_WITH_METADATA);
    const namespace = await this.#namespace(request);
    const { matches } = await this.#index.query(vector, { topK, namespace, returnMetadata: "all" });
    const memories = matches.flatMap((match) => {
      const entry = match.metadata?.entry;
      if (match.score < this.#minScore || typeof entry !== "string") return [];
      const parsed = MemoryEntrySchema.safeParse(JSON.parse(entry));
      return parsed.success ? [parsed.data] : [];
    });
    return { memories };
  }

  /**
   * Deletes by querying the namespace for ids (filtered on `sessionId` for one session) and deleting them,
   * round after round until no new id comes back. Vectorize applies deletes asynchronously.
   */
  async deleteMemories(scope: MemoryScope & { sessionId?: string }): Promise<void> {
    const namespace = await this.#namespace(scope);
    const [probe] = await this.#embed([scope.sessionId ?? "memory"]);
    if (!probe) return;
    const filter = scope.sessionId === undefined ? {} : { filter: { sessionId: scope.sessionId } };
    const deleted = new Set<string>();
    for (;;) {
      const { matches } = await this.#index.query(probe, { topK: ID_QUERY_TOP_K, namespace, ...filter });
      const fresh = matches.map((m) => m.id).filter((id) => !deleted.has(id));
      if (fresh.length === 0) return;
      await this.#index.deleteByIds(fresh);
      for (const id of fresh) deleted.add(id);
    }
  }

  async #upsert(scope: MemoryScope, rows: readonly MemoryRow[]): Promise<void> {
    if (rows.length === 0) return;
    const namespace = await this.#namespace(scope);
    const vectors = await this.#embed(rows.map((row) => row.text));
    const upserts = await Promise.all(
      rows.map(async (row, i) => ({
        // Vectorize ids are at most 64 bytes: the hash of the namespace and the memory's id.
        id: await hex(`${namespace}/${row.id}`),
        namespace,
        values: vectors[i] ?? [],
        metadata: { entry: JSON.stringify(cut(row.entry)), sessionId: row.sessionId ?? "" },
      })),
    );
    await this.#index.upsert(upserts);
  }

  async #embed(texts: readonly string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      const answer = EmbeddingsSchema.safeParse(
        await this.#ai.run(this.#model, { text: texts.slice(i, i + EMBED_BATCH) }),
      );
      if (!answer.success)
        throw new BatonError(
          "storage_error",
          `Workers AI's ${this.#model} answered no embeddings: ${answer.error.message}`,
        );
      vectors.push(...answer.data.data);
    }
    return vectors;
  }

  /** A namespace per (app, user): 64 hex characters, Vectorize's longest. */
  #namespace(scope: MemoryScope): Promise<string> {
    return hex(JSON.stringify([scope.appName, scope.userId]));
  }
}

/** The entry with its text parts cut to fit the vector's metadata. */
function cut(entry: MemoryEntry): MemoryEntry {
  const parts = (entry.content.parts ?? []).map((p) =>
    p.text !== undefined && p.text.length > MAX_ENTRY_TEXT
      ? { ...p, text: p.text.slice(0, MAX_ENTRY_TEXT) }
      : p,
  );
  return { ...entry, content: { ...entry.content, parts } };
}

/**
 * A `createWorker` memory option: the Vectorize service over the env's bindings named here, or an
 * `invalid_config` error naming the one that is missing.
 */
export function vectorizeMemory(
  bindings: { index: string; ai: string },
  options: Omit<VectorizeMemoryOptions, "index" | "ai"> = {},
): (env: Readonly<Record<string, unknown>>) => MemoryService {
  return (env) => {
    const index = env[bindings.index];
    const ai = env[bindings.ai];
    if (!isIndex(index))
      throw new BatonError("invalid_config", `No Vectorize index is bound as ${bindings.index}.`);
    if (!isModel(ai))
      throw new BatonError("invalid_config", `No Workers AI binding is bound as ${bindings.ai}.`);
    return new VectorizeMemoryService({ ...options, index, ai });
  };
}

const hasMethods = (value: unknown, names: readonly string[]): boolean =>
  typeof value === "object" &&
  value !== null &&
  names.every((name) => typeof Reflect.get(value, name) === "function");

function isIndex(value: unknown): value is MemoryIndex {
  return hasMethods(value, ["upsert", "query", "deleteByIds"]);
}

function isModel(value: unknown): value is EmbeddingModel {
  return hasMethods(value, ["run"]);
}
