import { BatonError } from "../core/errors.js";
import type { DoubleTextingConfig } from "../core/session-store.js";

const WAITING = ["enqueue", "latest", "merge"];
/** A debounce window longer than this would hold a message past what any client waits for an answer. */
const MAX_DEBOUNCE_MS = 60_000;

/** Checks `defineApp`'s `doubleTexting` at load: a known mode, or a waiting mode with a window in range. */
export function checkDoubleTexting(app: string, config: DoubleTextingConfig | undefined): void {
  const ok =
    config === undefined ||
    (typeof config === "string"
      ? [...WAITING, "reject", "interrupt"].includes(config)
      : WAITING.includes(config.mode) && config.debounceMs >= 0 && config.debounceMs <= MAX_DEBOUNCE_MS);
  if (ok) return;
  throw new BatonError(
    "invalid_config",
    `App "${app}": doubleTexting must be "reject", "enqueue", "interrupt", "latest", "merge" or ` +
      `{ mode: "enqueue" | "latest" | "merge", debounceMs: 0 to ${MAX_DEBOUNCE_MS} }, not ${JSON.stringify(config)}.`,
  );
}
