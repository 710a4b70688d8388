import type { Hono } from "hono";
import { consumePushDeliveries } from "../a2a/server/push-consumer.js";
import { pushPolicyFromList } from "../a2a/server/push-policy.js";
import { DurableObjectTaskStore } from "../a2a/tasks/do-task-store.js";
import type { RunPlugin } from "../agents/plugins.js";
import type { ArtifactBucket } from "../artifacts/r2-blobs.js";
import { BatonError } from "../core/errors.js";
import type { MemoryService, RunServices, TraceExport } from "../core/ports.js";
import type { PushDelivery } from "../core/task-store.js";
import type { EmailSupport } from "../email/email-support.js";
import type { IncomingEmail } from "../email/receive-email.js";
import { registerLiveHost } from "../live/live-hosts.js";
import { DurableObjectMemoryService } from "../memory/do-memory.js";
import type { ModelProvider } from "../models/model-provider.js";
import type { SessionObject } from "../objects/session-object.js";
import type { App } from "../runner/app.js";
import { fireSchedules } from "../schedules/fire-schedules.js";
import { defaultServices } from "../services/defaults.js";
import { aiSdkModelPort, ModelRegistry } from "../services/model-registry.js";
import { DurableObjectSessionStore, type SessionStoreEnv } from "../session/do-store.js";
import { registerTurnHost } from "../turns/turn-hosts.js";
import type { AcceptDeps } from "../webhooks/accept.js";
import { consumeDeadLetters } from "../webhooks/dead-letter-consumer.js";
import type { ConsumerDeps } from "../webhooks/turn-consumer.js";
import { consumeTurns } from "../webhooks/turn-consumer.js";
import { type TurnNamespace, turnLedger } from "../webhooks/turn-ledger.js";
import type { TurnMessage } from "../webhooks/turn-record.js";
import { turnSource } from "../webhooks/turn-sources.js";
import { createAdkApi } from "./api.js";
import { findApp } from "./app-lookup.js";
import type { ArtifactsSupport } from "./artifacts.js";
import { turnRunner } from "./turn-runner.js";
import type { ApiDeps, BatonBindings, HonoEnv } from "./types.js";

/** The bindings webhook turns need (wrangler `queues.producers` and `durable_objects.bindings`). */
export interface WebhookEnv {
  TURNS?: Pick<Queue<TurnMessage>, "send">;
  WEBHOOK_TURNS?: TurnNamespace;
}

/** A2A push notifications (decision 039): the queue of deliveries and the hosts they may go to. */
export interface A2aPushEnv {
  A2A_PUSH?: Pick<Queue<PushDelivery>, "send" | "sendBatch">;
  /** Comma-separated: `*` (any public host, the default), `*.example.com`, or a host by name. */
  A2A_PUSH_HOSTS?: string;
}

/** ADK's artifacts: an R2 bucket (wrangler `[[r2_buckets]]`); without it the artifact routes answer 501. */
export interface ArtifactsEnv {
  ARTIFACTS?: ArtifactBucket;
}

/** What a Baton Worker's env holds: the session bindings, the auth settings, model keys and bindings. */
export type BatonWorkerEnv = SessionStoreEnv & WebhookEnv & A2aPushEnv & ArtifactsEnv & BatonBindings;

export interface WorkerOptions {
  apps: readonly App[];
  /**
   * The model providers `provider:model` strings resolve through (`@baton-agents/core/models/openai`, `…/google`…);
   * `demo:` is built in. Only these providers' SDKs are bundled.
   */
  models?: readonly ModelProvider[];
  /** Overrides of the clock, ids, sleep, log or model port (tests). The env is always the Worker's env. */
  services?: Partial<RunServices>;
  /**
   * A2A serving (`/a2a/:app`): the user every context's session belongs to (default `A2A_USER_<contextId>`;
   * a name outside Baton's reserved namespace is stored as `baton:a2a:<name>`, decision 029), and the app
   * whose card is at the root `/.well-known/agent-card.json` (default: the only app). Push notifications
   * are on when the Worker has the `A2A_PUSH` queue, unless `pushNotifications` is `false`; `pushQueue` is
   * that queue's name (default `baton-a2a-push`), which the `queue` handler tells its batches by.
   */
  a2a?: { userId?: string; defaultApp?: string; pushNotifications?: boolean; pushQueue?: string };
  /**
   * Serves every app as an MCP server at `/mcp/<app>`: `mcpServer()` from `@baton-agents/core/mcp` (its own
   * entry, so a Worker without it bundles no MCP SDK).
   */
  mcp?: Hono<HonoEnv>;
  /**
   * ADK's eval routes (the dev UI's Evals tab): `evalRoutes()` from `@baton-agents/core/cloudflare/evals` (its
   * own entry, so a Worker without evaluations bundles none of them). Without it they answer 501.
   */
  evals?: Hono<HonoEnv>;
  /**
   * ADK's artifacts (tool contexts, `load_artifacts`, the seven routes, the dev UI's Artifacts tab):
   * `r2Artifacts()` from `@baton-agents/core/cloudflare/artifacts` (its own entry, so a Worker without
   * artifacts bundles none of it). Left out, the artifact routes answer 501.
   */
  artifacts?: ArtifactsSupport;
  /**
   * Where HTTP turns (`/run`, `/run_sse`, `/mcp`) run: `"session-object"` (the default, decision 040) in
   * their session's Durable Object, which keeps them running past any client and beats its alarm while
   * they run; `"request"` in the request's `waitUntil` (decision 012), as before, for agents that must
   * share the request's isolate context (a test that serves a remote agent in-process).
   */
  runTurnsIn?: "session-object" | "request";
  /** The queue whose messages are dead letters (wrangler `dead_letter_queue`). Default `baton-turns-dlq`. */
  deadLetterQueue?: string;
  /**
   * The memory service (ADK's): by default each user's Durable Object (SQLite full-text search);
   * `vectorizeMemory(...)` from `@baton-agents/core/cloudflare` for semantic search over Vectorize.
   */
  memory?: (env: BatonWorkerEnv) => MemoryService;
  /** Inbound email (`inboundEmail` from `@baton-agents/core/cloudflare/email`), needed by apps with an `email` route. */
  email?: EmailSupport;
  /**
   * ADK's replay mode for conformance runs: `adkReplayPlugin` from `@baton-agents/core`, put first in every
   * app's plugins when the var `ADK_REPLAY` is `"true"`. Opt-in, so a Worker that is never replayed bundles
   * none of it; with the var set and no plugin given, every request is refused (a replayed case must never
   * reach a real model).
   */
  replay?: RunPlugin;
  /**
   * Where each finished turn's trace is exported besides the session (which keeps the newest for the dev
   * UI): `otlpTraces()` from `@baton-agents/core/otel` sends them to the OTLP collector `OTEL_*` vars name
   * (its own entry, so a Worker without it installs and bundles no OpenTelemetry).
   */
  traces?: TraceExport;
}

/**
 * ADK's replay mode (`_adk_replay_config` in the session state answers model and tool calls from the
 * recordings it carries): on only when the var `ADK_REPLAY` is `"true"`, which a deploy never sets.
 */
const inReplayMode = (env: BatonWorkerEnv): boolean => env.ADK_REPLAY === "true";

/** The apps with the replay plugin first. */
const withReplay = (apps: ReadonlyMap<string, App>, plugin: RunPlugin): ReadonlyMap<string, App> =>
  new Map([...apps].map(([name, app]) => [name, { ...app, plugins: [plugin, ...(app.plugins ?? [])] }]));

/** The apps a request is served with: the replayed ones in replay mode, which needs the plugin. */
function replayAware(apps: ReadonlyMap<string, App>, plugin: RunPlugin | undefined) {
  const replayApps = plugin ? withReplay(apps, plugin) : undefined;
  return (env: BatonWorkerEnv): ReadonlyMap<string, App> => {
    if (!inReplayMode(env)) return apps;
    if (replayApps) return replayApps;
    throw new BatonError(
      "invalid_config",
      "ADK_REPLAY is true, but this Worker has no replay plugin: pass `replay: adkReplayPlugin` (from @baton-agents/core) to createWorker.",
    );
  };
}

export const DEFAULT_DEAD_LETTER_QUEUE = "baton-turns-dlq";
export const DEFAULT_PUSH_QUEUE = "baton-a2a-push";

/** A Worker secret or var by name, when it is a non-empty string. */
const secretOf = (env: BatonWorkerEnv) => (name: string) => {
  const value = env[name];
  return typeof value === "string" && value !== "" ? value : undefined;
};

/**
 * The Worker's handlers for a set of apps: ADK's HTTP API over Durable Object sessions, webhook deliveries,
 * cron firings (`scheduled`), inbound mail (`email`), and the queue consumers that run queued turns (`TURNS`) and record dead letters.
 * @example
 * export * from "@baton-agents/core/cloudflare"; // the Durable Object classes wrangler must see
 * export default createWorker({ apps: [helpdesk], models: [openaiCompatible()] });
 */
export function createWorker(options: WorkerOptions) {
  const apps = new Map<string, App>();
  for (const app of options.apps) {
    if (apps.has(app.name)) throw new BatonError("invalid_config", `Two apps are named "${app.name}".`);
    apps.set(app.name, app);
  }
  const emailSupport = options.email;
  const defaultApp = options.a2a?.defaultApp;
  if (defaultApp !== undefined && !apps.has(defaultApp))
    throw new BatonError("invalid_config", `a2a.defaultApp names no app: "${defaultApp}".`);
  const registry = new ModelRegistry(options.models);
  const models = aiSdkModelPort(registry);
  const appsFor = replayAware(apps, options.replay);
  // The memory service: the option's, or the users' objects (`USERS`, which the session store has too); one per env.
  const memories = new WeakMap<BatonWorkerEnv, MemoryService>();
  const memoryFor = (env: BatonWorkerEnv): MemoryService => {
    const made = memories.get(env) ?? options.memory?.(env) ?? new DurableObjectMemoryService(env);
    memories.set(env, made);
    return made;
  };
  const artifactsFor = (env: BatonWorkerEnv): Pick<RunServices, "artifacts"> => {
    const artifacts = options.artifacts?.service(env);
    return artifacts ? { artifacts } : {};
  };
  const services = (env: BatonWorkerEnv): RunServices =>
    defaultServices({
      models,
      ...artifactsFor(env),
      memory: memoryFor(env),
      ...options.services,
      env,
    });
  const acceptDeps = (env: BatonWorkerEnv): AcceptDeps | undefined => {
    const { TURNS, WEBHOOK_TURNS } = env;
    if (!TURNS || !WEBHOOK_TURNS) return undefined;
    const { clock, ids } = services(env);
    return { ledger: turnLedger(WEBHOOK_TURNS), queue: TURNS, secret: secretOf(env), clock, ids };
  };
  // HTTP turns run in their session's object (decision 040), which finds these apps under this name.
  const turnHost = registerTurnHost({
    start: (env, { appName, run }, keepAlive, inside) => {
      // SAFETY: the session object's env is the Worker's (same script, same bindings) with its vars over it.
      const deps = depsInside(depsOf(env as BatonWorkerEnv), inside);
      return turnRunner(deps, findApp(deps.apps, appName), env, keepAlive).start(run);
    },
  });
  // Live calls (`/run_live`) run in the session's object too, found under the same name (decision 055).
  if (turnHost !== undefined)
    registerLiveHost(turnHost, (env, appName, inside) => {
      // SAFETY: as the turn host's: the session object's env is the Worker's, its vars over it.
      const deps = depsInside(depsOf(env as BatonWorkerEnv), inside);
      return {
        app: findApp(deps.apps, appName),
        services: deps.services,
        store: deps.sessionStore,
        liveModel: (spec) => registry.resolveLive(spec, env),
      };
    });
  // Turns begun outside the object name the host, so the object can resume them in place (decision 047).
  const storeHost = options.runTurnsIn === "request" || turnHost === undefined ? {} : { turnHost };
  // Per env's deps and session object: the deps whose store calls that object directly (decision 040).
  const insideDeps = new WeakMap<ApiDeps, WeakMap<SessionObject, ApiDeps>>();
  const depsInside = (deps: ApiDeps, inside: { name: string; object: SessionObject }): ApiDeps => {
    const { sessionStore } = deps;
    if (!(sessionStore instanceof DurableObjectSessionStore)) return deps;
    const byObject = insideDeps.get(deps) ?? new WeakMap<SessionObject, ApiDeps>();
    insideDeps.set(deps, byObject);
    const known = byObject.get(inside.object);
    if (known) return known;
    const made = { ...deps, sessionStore: sessionStore.inside(inside.name, inside.object) };
    byObject.set(inside.object, made);
    return made;
  };
  const pushOn = (env: BatonWorkerEnv) =>
    options.a2a?.pushNotifications !== false && env.A2A_PUSH !== undefined;
  const apiDeps = (env: BatonWorkerEnv): ApiDeps => {
    const webhooks = acceptDeps(env);
    return {
      apps: appsFor(env),
      sessionStore: new DurableObjectSessionStore(env, storeHost),
      taskStore: new DurableObjectTaskStore(env),
      ...(options.traces === undefined ? {} : { traces: options.traces }),
      ...(options.a2a?.userId === undefined ? {} : { a2aUserId: options.a2a.userId }),
      ...(defaultApp === undefined ? {} : { a2aDefaultApp: defaultApp }),
      ...(pushOn(env) ? { a2aPush: pushPolicyFromList(env.A2A_PUSH_HOSTS) } : {}),
      services: services(env),
      ...(options.runTurnsIn === "request" || turnHost === undefined ? {} : { turnHost }),
      ...(webhooks ? { webhooks } : {}),
    };
  };
  // Everything in the deps derives from the env alone, and workerd hands an isolate's requests the same env
  // object: built once per env, not per request (a new env object, as tests make, gets its own).
  const depsByEnv = new WeakMap<BatonWorkerEnv, ApiDeps>();
  const depsOf = (env: BatonWorkerEnv): ApiDeps => {
    const known = depsByEnv.get(env);
    if (known) return known;
    const made = apiDeps(env);
    depsByEnv.set(env, made);
    return made;
  };
  const api = createAdkApi<BatonWorkerEnv>(depsOf, {
    mcp: options.mcp,
    evals: options.evals,
    artifacts: options.artifacts,
  });
  const consumerDeps = (env: BatonWorkerEnv, ctx: ExecutionContext): ConsumerDeps => {
    if (!env.WEBHOOK_TURNS || !env.TURNS)
      throw new BatonError(
        "invalid_config",
        "The queue consumer needs the WEBHOOK_TURNS Durable Object binding and the TURNS queue producer.",
      );
    const runServices = services(env);
    return {
      apps: appsFor(env),
      sessionStore: new DurableObjectSessionStore(env, storeHost),
      ledger: turnLedger(env.WEBHOOK_TURNS),
      queue: env.TURNS,
      services: runServices,
      fetch: runServices.fetch,
      secret: secretOf(env),
      onTrace: options.traces?.(env, runServices, (work) => ctx.waitUntil(work)),
      sourceOf: (app, record) =>
        record.origin === "email" && app.emailRoute && emailSupport
          ? emailSupport.source(app.emailRoute, env)
          : turnSource(app, record),
    };
  };
  const deadLetterQueue = options.deadLetterQueue ?? DEFAULT_DEAD_LETTER_QUEUE;
  const pushQueue = options.a2a?.pushQueue ?? DEFAULT_PUSH_QUEUE;
  const pushDeliveries = (batch: MessageBatch<unknown>, env: BatonWorkerEnv) => {
    const { fetch, log } = services(env);
    const tasks = new DurableObjectTaskStore(env);
    return consumePushDeliveries(batch, {
      fetch,
      log,
      policy: pushPolicyFromList(env.A2A_PUSH_HOSTS),
      target: ({ appName, userId, sessionId, taskId, configId }) =>
        tasks.pushTarget({ appName, userId, sessionId, taskId }, configId),
    });
  };
  const scheduled = async (controller: ScheduledController, env: BatonWorkerEnv) => {
    const deps = acceptDeps(env);
    if (!deps)
      throw new BatonError(
        "invalid_config",
        "Cron schedules need the TURNS queue and the WEBHOOK_TURNS Durable Object bindings (see wrangler.toml).",
      );
    await fireSchedules(appsFor(env), controller, { ...deps, log: services(env).log });
  };
  const email = async (message: IncomingEmail, env: BatonWorkerEnv) => {
    const deps = acceptDeps(env);
    if (!deps || !emailSupport) {
      message.setReject("This mailbox is not set up to take mail.");
      throw new BatonError(
        "invalid_config",
        emailSupport
          ? "Inbound email needs the TURNS queue and the WEBHOOK_TURNS Durable Object bindings (see wrangler.toml)."
          : "Inbound email needs `email: inboundEmail` (from @baton-agents/core/cloudflare/email) in createWorker's options.",
      );
    }
    await emailSupport.receive(appsFor(env), message, { ...deps, log: services(env).log });
  };
  return {
    fetch: (request, env, ctx) => api.fetch(request, env, ctx),
    email: (message: IncomingEmail, env: BatonWorkerEnv, _ctx: ExecutionContext) => email(message, env),
    scheduled: (controller, env, _ctx) => scheduled(controller, env),
    queue: (batch, env, ctx) => {
      if (batch.queue === pushQueue) return pushDeliveries(batch, env);
      return batch.queue === deadLetterQueue
        ? consumeDeadLetters(batch, consumerDeps(env, ctx))
        : consumeTurns(batch, consumerDeps(env, ctx));
    },
  } satisfies ExportedHandler<BatonWorkerEnv>;
}
