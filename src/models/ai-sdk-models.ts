import type { ModelPort } from "../core/ports.js";
import { callModel } from "./call-model.js";
import { resolveModel } from "./resolve-model.js";

/**
 * The model port over the AI SDK: `provider:model` strings resolve through the providers configured
 * from the invocation's env (`resolveModel`), and calls retry with the invocation's sleep, randomness
 * and clock (`callModel`).
 * @example
 * const runner = new Runner({ app, sessionStore, services: defaultServices({ models: aiSdkModels }) });
 */
export const aiSdkModels: ModelPort = {
  call(spec, request, { streaming, retry, signal, services }) {
    return callModel(resolveModel(spec, services.env), request, {
      streaming,
      retry,
      sleep: services.sleep,
      random: services.random,
      now: () => services.clock.now(),
      ...(signal ? { signal } : {}),
    });
  },
};
