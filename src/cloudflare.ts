/**
 * `@baton-agents/core/cloudflare`: what only runs on Cloudflare Workers. `createWorker` serves apps over ADK's HTTP
 * API with sessions in Durable Objects; the Worker's entry must re-export the Durable Object classes so
 * wrangler can bind them (`export * from "@baton-agents/core/cloudflare"`).
 */
export {
  type ArtifactsEnv,
  type BatonWorkerEnv,
  createWorker,
  type WorkerOptions,
} from "./handlers/create-worker.js";
export { DurableObjectMemoryService, type MemoryEnv } from "./session/do-memory.js";
export {
  DurableObjectSessionStore,
  type DurableObjectSessionStoreOptions,
  type SessionStoreEnv,
} from "./session/do-store.js";
export { AppObject, UserObject } from "./session/scope-objects.js";
export { SessionObject } from "./session/session-object.js";
export { TurnObject } from "./webhooks/turn-object.js";
