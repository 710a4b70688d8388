import type { RunServices } from "../core/ports.js";
import { defaultServices } from "../defaults.js";
import type { App } from "../runner/app.js";
import { DurableObjectSessionStore, type SessionStoreEnv } from "../session/do-store.js";
import { createAdkApi } from "./api.js";
import type { BatonBindings } from "./types.js";

/** What a Baton Worker's env holds: the session bindings, the auth settings, model keys and bindings. */
export type BatonWorkerEnv = SessionStoreEnv & BatonBindings;

export interface WorkerOptions {
  apps: readonly App[];
  /** Overrides of the clock, ids, sleep, log or model port (tests). The env is always the Worker's env. */
  services?: Partial<RunServices>;
}

/**
 * The Worker's handlers for a set of apps: ADK's HTTP API over Durable Object sessions.
 * @example
 * export * from "baton/cloudflare"; // the Durable Object classes wrangler must see
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
    services: defaultServices({ ...options.services, env }),
  }));
  return {
    fetch: (request, env, ctx) => api.fetch(request, env, ctx),
  } satisfies ExportedHandler<BatonWorkerEnv>;
}
