/**
 * `@baton-agents/core/cloudflare/memory`: semantic memory for `createWorker`'s `memory` option, over
 * Vectorize and Workers AI embeddings. Its own entry, so Workers on the default store (each user's
 * Durable Object, SQLite full-text search) bundle none of it. docs/services.md, decision 033.
 */
export {
  DEFAULT_EMBEDDING_MODEL,
  type EmbeddingModel,
  type MemoryIndex,
  type VectorizeMemoryOptions,
  VectorizeMemoryService,
  vectorizeMemory,
} from "./memory/vectorize-memory.js";
