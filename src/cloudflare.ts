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
export { DurableObjectMemoryService, type MemoryEnv } from "./memory/do-memory.js";
export { AppObject } from "./objects/app-object.js";
export { SessionObject } from "./objects/session-object.js";
export { TurnObject } from "./objects/turn-object.js";
export { UserObject } from "./objects/user-object.js";
export {
  DurableObjectSessionStore,
  type DurableObjectSessionStoreOptions,
  type SessionStoreEnv,
} from "./session/do-store.js";
