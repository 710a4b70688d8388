import { BatonError } from "../core/errors.js";
import type { ModelPort, RunServices } from "../core/ports.js";

/** The model port of a runner that was given none: every model call says how to wire one. */
const noModels: ModelPort = {
  call() {
    throw new BatonError(
      "MODEL_CONFIG",
      "No model port is configured: pass services.models (aiSdkModelPort from baton), or use defaultServices().",
    );
  },
};

/**
 * The real clock, ids, sleep, randomness, log and fetch, with an empty env and no model port; the
 * entries add the AI SDK model port (`defaultServices()`), and tests replace any of them.
 */
export const systemServices = (): RunServices => ({
  clock: { now: () => Date.now() },
  ids: { uuid: () => crypto.randomUUID() },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  log: (message) => console.warn(message),
  fetch: (input, init) => fetch(input, init),
  env: {},
  models: noModels,
});
