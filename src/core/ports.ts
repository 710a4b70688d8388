/**
 * The ports: everything a turn needs from the outside world, as interfaces. Agents, the runner and the
 * handlers use only these; the adapters implement them (`models/` the model port, `session/` the
 * session store) and the entries wire them (`defaultServices()`, `createWorker`). Tests pass fakes.
 *
 * This file names platform types (`fetch`, `AbortSignal`), so it is left out of tsconfig.pure.json; it
 * holds types only. The pure folders never import it.
 */
import type { ArtifactService } from "./artifacts.js";
import type { Content } from "./content.js";
import type { Clock, IdSource } from "./ids.js";
import type { LlmRequest, LlmResponse, ModelObject, ModelSpec, RetryPolicy } from "./llm.js";
import type { MemoryService } from "./memory.js";

import type { ReminderStore } from "./reminder.js";
import type { StateMap } from "./state.js";
import type { TurnTrace } from "./trace.js";

export type { ArtifactService } from "./artifacts.js";
export type { Clock, IdSource } from "./ids.js";
export type { LlmRequest, LlmResponse, ModelObject, ModelSpec, RetryPolicy, ToolDeclaration } from "./llm.js";
export type { MemoryService } from "./memory.js";
export type { CreateSessionRequest, EventWindow, SessionStore, TurnStart } from "./session-store.js";

/**
 * The deployment's env: the Worker's `env` or `process.env`. Provider keys are strings, bindings (`AI`)
 * objects; an adapter reads the keys it knows and checks their type before use.
 */
export interface Env {
  readonly [key: string]: unknown;
}

/** How one model call runs. */
export interface ModelCallOptions {
  /** Yield partial chunks before the final response. */
  streaming: boolean;
  retry: RetryPolicy;
  signal?: AbortSignal;
  /** The invocation's services: the env holds the provider keys, sleep/random/clock drive retries. */
  services: RunServices;
}

/**
 * How agents call a model without knowing any provider. `models/` implements it over the AI SDK
 * (`aiSdkModelPort`).
 */
export interface ModelPort {
  /**
   * Calls the model `spec` names, once (retries included), and yields ADK responses: when streaming,
   * partial chunks, then one final response. A failure is a `BatonError` with a `MODEL_*` code.
   */
  call(spec: ModelSpec, request: LlmRequest, options: ModelCallOptions): AsyncIterable<LlmResponse>;
  /**
   * The model object `spec` names, resolved as `call` resolves it (the registered providers, configured
   * from `env`), for runtimes that run their own loop over it (`aiSdkRuntime`). A `MODEL_CONFIG`
   * `BatonError` names the registered prefixes when the prefix is unknown.
   */
  resolve?(spec: ModelSpec, env: Env): ModelObject;
}

/**
 * Where finished turns' traces go beyond the session (an OTLP collector: `otlpTraces()` from
 * `@baton-agents/core/otel`): given the env, the services and how to keep work alive past the response,
 * the runner's `onTrace`, or `undefined` when the env configures no destination.
 */
export type TraceExport = (
  env: Env,
  services: Pick<RunServices, "fetch" | "log">,
  keepAlive: (work: Promise<void>) => void,
) => ((trace: TurnTrace) => void) | undefined;

/** Everything an invocation needs from the outside world. `defaultServices()` gives the real ones. */
export interface RunServices {
  clock: Clock;
  ids: IdSource;
  sleep: (ms: number) => Promise<void>;
  /** In [0, 1). */
  random: () => number;
  log: (message: string) => void;
  /** The platform's `fetch`, for adapters that call out (remote agents, webhooks). */
  fetch: typeof globalThis.fetch;
  env: Env;
  models: ModelPort;
  /** The session store's reminders (the reminder tools use them); the runner fills it in from the store. */
  reminders?: ReminderStore;
  /**
   * ADK's artifact service: what `saveArtifact`/`loadArtifact`/`listArtifacts` on tool and callback
   * contexts use, and the artifact routes. R2 on Workers (`ARTIFACTS`), in memory for the `baton` entry's
   * `Runner`; left out, those calls say that no artifact service is configured.
   */
  artifacts?: ArtifactService;
  /**
   * ADK's memory service: what `load_memory`, `preload_memory` and `searchMemory` on contexts search, and
   * what `PATCH /apps/:app/users/:user/memory` adds to. The user's Durable Object on Workers, in memory
   * for the `baton` entry's `Runner`.
   */
  memory?: MemoryService;
}

/** One invocation as `Runner.run` and `Runner.start` take it (and a session's object, decision 040). */
export interface RunRequest {
  userId: string;
  sessionId: string;
  newMessage: Content;
  /** Written with the user event, before the agent runs (ADK S08). */
  stateDelta?: StateMap;
  /** Yield partial (streaming) events too; they are never stored. */
  streaming?: boolean;
  /** Merged into every event of the invocation; an event's own keys win (ADK E03). */
  customMetadata?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * A caller-given invocation id and user event id (a queued webhook turn). When the user event is already
   * stored, the turn resumes: nothing is appended again, routing continues from the stored events, and an
   * invocation that already ended with a final response runs nothing more.
   */
  invocationId?: string;
  userEventId?: string;
  /**
   * Resume the stored invocation `invocationId` (ADK's `invocationId` on `/run`): its stored user event is
   * the turn's (found here when `userEventId` is not given); `not_found` when the session has none.
   */
  resume?: boolean;
}
