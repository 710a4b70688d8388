/**
 * The composition root of the runtime-neutral entry: the real services with the AI SDK model port, and
 * the `Runner` that uses them by default. Only the entries import adapters; the layers get ports.
 */
import type { RunServices } from "./core/ports.js";
import { aiSdkModels } from "./models/ai-sdk-models.js";
import { Runner as PortRunner, type RunnerOptions } from "./runner/runner.js";
import { systemServices } from "./runner/system-services.js";

/**
 * The real services: system clock, random UUIDs, timers, `console.warn`, the global `fetch`, and models
 * resolved through the AI SDK providers from `env`. Anything in `overrides` wins.
 * @example
 * defaultServices({ env: process.env }); // OPENAI_API_KEY and friends from the environment
 */
export function defaultServices(overrides: Partial<RunServices> = {}): RunServices {
  return { ...systemServices(), models: aiSdkModels, ...overrides };
}

/**
 * The `Runner` of the `baton` entry: services you leave out are `defaultServices()`'s, so model strings
 * and AI SDK model objects work with no wiring.
 * @example
 * const runner = new Runner({ app, sessionStore: new InMemorySessionStore() });
 */
export class Runner extends PortRunner {
  constructor(options: RunnerOptions) {
    super({ ...options, services: defaultServices(options.services) });
  }
}
