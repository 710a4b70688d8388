import type { RunServices } from "../core/ports.js";
import type { SessionStore } from "../core/session-store.js";
import type { TaskStore } from "../core/task-store.js";
import type { App } from "../runner/app.js";
import type { AcceptDeps } from "../webhooks/accept.js";

/** The vars and secrets the HTTP layer reads; model keys and bindings ride along for the models. */
export interface BatonBindings {
  /** Comma-separated bearer tokens (a secret). */
  API_TOKENS?: string;
  /** `"true"` serves without tokens: `npm run dev` sets it, a deploy must not. */
  ALLOW_UNAUTHENTICATED?: string;
  /** `"true"` (what `npm run dev` sets): `/` redirects to ADK's dev UI at `/dev-ui/`. */
  DEV_UI?: string;
  /** `"true"` turns on ADK's replay mode (`npm run conformance` sets it; a deploy never does). */
  ADK_REPLAY?: string;
  [key: string]: unknown;
}

export type HonoEnv<B extends BatonBindings = BatonBindings> = {
  Bindings: B;
  Variables: { deps: ApiDeps };
};

/** The routes under `/apps/:app`: `resolveApp` has put the app on the context. */
export type AppScopedEnv<B extends BatonBindings = BatonBindings> = {
  Bindings: B;
  Variables: { deps: ApiDeps; app: App };
};

/** What the handlers need per request; `createWorker` builds it from the Worker's env. */
export interface ApiDeps {
  apps: ReadonlyMap<string, App>;
  sessionStore: SessionStore;
  /** Complete: `createWorker` wires the real ones (`defaultServices`), tests their own. */
  services: RunServices;
  /** A2A tasks (`/a2a/:app`); the Durable Object store on Workers, the in-memory store in tests. */
  taskStore?: TaskStore;
  /** The user every A2A context belongs to; by default `A2A_USER_<contextId>`, as ADK does. */
  a2aUserId?: string;
  /** The turn objects and the queue, when the Worker has their bindings. */
  webhooks?: AcceptDeps;
}
