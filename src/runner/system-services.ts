import { BatonError } from "../core/errors.js";
import type { IdSource } from "../core/ids.js";
import type { ModelPort, RunServices } from "../core/ports.js";

/**
 * The platform's ids: `crypto.randomUUID()`, flat. Node builds each id as a rope of about twenty short
 * strings (~490 bytes kept per stored id, against ~60 for a flat one); reading a character makes V8
 * flatten it in place, and the rope becomes garbage. Workers' ids are flat already.
 */
export const systemIds: IdSource = {
  uuid() {
    const id = crypto.randomUUID();
    id.charCodeAt(0);
    return id;
  },
};

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
  ids: systemIds,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  log: (message) => console.warn(message),
  fetch: (input, init) => fetch(input, init),
  env: {},
  models: noModels,
});
