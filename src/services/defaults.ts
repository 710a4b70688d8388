/**
 * The composition root of the runtime-neutral entry: the real services with the AI SDK model port, and
 * the `Runner` that uses them by default. Only the entries import adapters; the layers get ports.
 */
import { InMemoryArtifactService } from "../artifacts/blob-artifact-service.js";
import type { RunServices } from "../core/ports.js";
import { InMemoryMemoryService } from "../memory/in-memory-memory.js";
import type { ModelProvider } from "../models/model-provider.js";
import { Runner as PortRunner, type RunnerOptions } from "../runner/runner.js";
import { systemServices } from "../runner/system-services.js";
import { aiSdkModelPort } from "./model-registry.js";

/**
 * The real services: system clock, random UUIDs, timers, `console.warn`, the global `fetch`, and the AI
 * SDK model port over `providers` (plus the built-in `demo:`), configured from `env`. Anything in
 * `overrides` wins.
 * @example
 * defaultServices({ env: process.env }, [openai()]); // OPENAI_API_KEY from the environment
 */
export function defaultServices(
  overrides: Partial<RunServices> = {},
  providers: readonly ModelProvider[] = [],
): RunServices {
  return { ...systemServices(), models: aiSdkModelPort(providers), ...overrides };
}

/** The `Runner` of the `baton` entry's options: the port runner's, plus the model providers to register. */
export interface BatonRunnerOptions extends RunnerOptions {
  /** The providers `provider:model` strings resolve through (`@baton-agents/core/models/*`); `demo:` is built in. */
  models?: readonly ModelProvider[];
}

/**
 * The `Runner` of the `baton` entry: services you leave out are `defaultServices()`'s, so model strings
 * of the providers you register and AI SDK model objects work with no other wiring. Artifacts and memory
 * are kept in memory unless `services.artifacts`/`services.memory` name stores (ADK's `InMemoryRunner` does
 * the same).
 * @example
 * const runner = new Runner({ app, sessionStore: new InMemorySessionStore(), models: [openai()] });
 */
export class Runner extends PortRunner {
  constructor(options: BatonRunnerOptions) {
    const { models, ...rest } = options;
    const artifacts = options.services?.artifacts ?? new InMemoryArtifactService();
    const memory = options.services?.memory ?? new InMemoryMemoryService();
    super({ ...rest, services: defaultServices({ ...options.services, artifacts, memory }, models) });
  }
}
