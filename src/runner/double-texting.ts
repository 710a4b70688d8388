import { BatonError } from "../core/errors.js";
import type { DoubleTextingConfig } from "../core/session-store.js";

const MODES = ["reject", "enqueue", "interrupt", "latest", "merge"];
const WAITING = ["enqueue", "latest", "merge"];
/** A debounce window longer than this would hold a message past what any client waits for an answer. */
const MAX_DEBOUNCE_MS = 60_000;

/** Checks `defineApp`'s `doubleTexting` at load: a known mode, or a waiting mode with a window in range. */
export function checkDoubleTexting(app: string, config: DoubleTextingConfig | undefined): void {
  if (config === undefined) return;
  const fail = (what: string) => {
    throw new BatonError("invalid_config", `App "${app}": doubleTexting ${what}.`);
  };
  if (typeof config === "string") {
    if (!MODES.includes(config))
      fail(`must be "reject", "enqueue", "interrupt", "latest" or "merge", not "${config}"`);
    return;
  }
  if (!WAITING.includes(config.mode))
    fail(`with a debounce window must be "enqueue", "latest" or "merge", not "${String(config.mode)}"`);
  const ms = config.debounceMs;
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_DEBOUNCE_MS)
    fail(`debounceMs must be from 0 to ${MAX_DEBOUNCE_MS}, not ${String(ms)}`);
}
