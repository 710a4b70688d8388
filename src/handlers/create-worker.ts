import type { RunServices } from "../agents/invocation-context.js";
import type { App } from "../runner/app.js";
import { DurableObjectSessionStore, type SessionStoreEnv } from "../session/do-store.js";
import { DurableObjectTaskStore } from "../session/do-task-store.js";
import { createAdkApi } from "./api.js";
import type { BatonBindings } from "./types.js";

/** What a Baton Worker's env holds: the session bindings, the auth settings, model keys and bindings. */
export type BatonWorkerEnv = SessionStoreEnv & BatonBindings;

export interface WorkerOptions {
  apps: readonly App[];
  /** Overrides of the clock, ids, sleep or log (tests). The model env is always the Worker's env. */
  services?: Partial<RunServices>;
  /** A2A serving (`/a2a/:app`): the user every context's session belongs to (default `A2A_USER_<contextId>`). */
  a2a?: { userId?: string };
}

/**
 * The Worker's handlers for a set of apps: ADK's HTTP API over Durable Object sessions.
 * @example
 * export * from "baton"; // the Durable Object classes wrangler must see
 * export default createWorker({ apps: [helpdesk] });
 */
export function createWorker(options: WorkerOptions) {
  const apps = new Map<string, App>();
  for (const app of options.apps) {
    if (apps.has(app.name)) throw new TypeError(`Two apps are named "${app.name}".`);
    apps.set(app.name, app);
  }
  const api = createAdkApi<BatonWorkerEnv>((env) => ({
    apps,
    sessionStore: new DurableObjectSessionStore(env),
    taskStore: new DurableObjectTaskStore(env),
    ...(options.a2a?.userId === undefined ? {} : { a2aUserId: options.a2a.userId }),
    services: { ...options.services, modelEnv: env },
  }));
  return {
    fetch: (request, env, ctx) => api.fetch(request, env, ctx),
  } satisfies ExportedHandler<BatonWorkerEnv>;
}
