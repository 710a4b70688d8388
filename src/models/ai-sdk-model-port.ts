import type { ModelPort } from "../core/ports.js";
import { withLazySignal } from "../core/signal-source.js";
import { callModel } from "./call-model.js";
import type { ProviderRegistry } from "./model-registry.js";

/**
 * The model port over the AI SDK: `provider:model` strings resolve through `registry`'s providers,
 * configured from the invocation's env, model objects pass through, and calls retry with the invocation's
 * sleep, randomness and clock (`callModel`). The public `aiSdkModelPort` adds the built-in `demo:`.
 */
export function modelPortOver(registry: ProviderRegistry): ModelPort {
  return {
    call(spec, request, options) {
      const { streaming, retry, services } = options;
      const callOptions = {
        streaming,
        retry,
        sleep: services.sleep,
        random: services.random,
        now: () => services.clock.now(),
      };
      // The turn's signal is passed on unread: it is made only if the model asks for it (core/signal-source.ts).
      return callModel(
        registry.resolve(spec, services.env),
        request,
        withLazySignal(callOptions, "signal", options),
      );
    },
    resolve: (spec, env) => registry.resolve(spec, env),
  };
}
