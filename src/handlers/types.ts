import type { PushPolicy } from "../a2a/server/push-policy.js";
import type { RunServices, TraceExport } from "../core/ports.js";
import type { SessionStore } from "../core/session-store.js";
import type { TaskStore } from "../core/task-store.js";
import type { EvalDocumentStore } from "../evals/eval-store.js";
import type { App } from "../runner/app.js";
import type { AcceptDeps } from "../webhooks/accept.js";
import type { Caller } from "./caller.js";

/** The vars and secrets the HTTP layer reads; model keys and bindings ride along for the models. */
export interface BatonBindings {
  /** Comma-separated bearer tokens (a secret). */
  API_TOKENS?: string;
  /** `"true"` serves without tokens: `npm run dev` sets it, a deploy must not. */
  ALLOW_UNAUTHENTICATED?: string;
  /** End-user mode (docs/decisions/022): the issuer, audience(s) and key set of the users' JWTs. */
  JWT_ISSUER?: string;
  JWT_AUDIENCE?: string;
  JWT_JWKS_URL?: string;
  /** Comma-separated JWS algorithms end-user tokens may use (default `RS256,ES256`). */
  JWT_ALGORITHMS?: string;
  /** The claim listing the apps an end-user token may use (array or space-separated); unset, every app. */
  JWT_APPS_CLAIM?: string;
  /** `"true"` (what `npm run dev` sets): `/` redirects to ADK's dev UI at `/dev-ui/`. */
  DEV_UI?: string;
  /** `"true"` turns on ADK's replay mode (`npm run conformance` sets it; a deploy never does). */
  ADK_REPLAY?: string;
  [key: string]: unknown;
}

export type HonoEnv<B extends BatonBindings = BatonBindings> = {
  Bindings: B;
  /** `caller` is set by the auth middleware; routes before it (health, cards, webhooks) have none. */
  Variables: { deps: ApiDeps; caller?: Caller };
};

/** The routes under `/apps/:app`: `resolveApp` has put the app on the context. */
export type AppScopedEnv<B extends BatonBindings = BatonBindings> = {
  Bindings: B;
  Variables: { deps: ApiDeps; caller?: Caller; app: App };
};

/** What the handlers need per request; `createWorker` builds it from the Worker's env. */
export interface ApiDeps {
  apps: ReadonlyMap<string, App>;
  sessionStore: SessionStore;
  /** Complete: `createWorker` wires the real ones (`defaultServices`), tests their own. */
  services: RunServices;
  /** A2A tasks (`/a2a/:app`); the Durable Object store on Workers, the in-memory store in tests. */
  taskStore?: TaskStore;
  /** The user every A2A context belongs to (as `baton:a2a:<name>` unless reserved); by default `A2A_USER_<contextId>`, as ADK does. */
  a2aUserId?: string;
  /** The app whose agent card is at the root `/.well-known/agent-card.json` (default: the only app). */
  a2aDefaultApp?: string;
  /**
   * A2A push notifications are on, to the hosts this allows (decision 039): `createWorker` sets it when the
   * Worker has the `A2A_PUSH` queue; in Node, give it with an `InMemorySessionStore` whose `onPush` delivers.
   */
  a2aPush?: PushPolicy;
  /**
   * The name `createWorker` registered its apps under (`registerTurnHost`): HTTP turns then run in their
   * session's Durable Object (decision 040). Without it (Node, tests' own deps) they run in the request.
   */
  turnHost?: string;
  /** The turn objects and the queue, when the Worker has their bindings. */
  webhooks?: AcceptDeps;
  /** Where finished turns' traces are exported (`createWorker({ traces })`); none when left out. */
  traces?: TraceExport;
  /** Eval sets and results; by default the Worker's R2 bucket or app objects (`evalStoreOf`). */
  evalStore?: EvalDocumentStore;
}
