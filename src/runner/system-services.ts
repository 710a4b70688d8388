import type { RunServices } from "../agents/invocation-context.js";

/** The real clock, ids and sleep; tests replace any of them. */
export const systemServices = (): RunServices => ({
  clock: { now: () => Date.now() },
  ids: { uuid: () => crypto.randomUUID() },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  modelEnv: {},
  log: (message) => console.warn(message),
});
