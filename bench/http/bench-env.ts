import type { BatonWorkerEnv } from "../../src/handlers/create-worker.js";

/** The bench Worker's env: Baton's bindings plus the fake model's base URL (a var). */
export type BenchEnv = BatonWorkerEnv & { OPENAI_COMPATIBLE_BASE_URL: string };

/** The agent both bench apps run. */
export const AGENT_NAME = "assistant";
export const BOUNDED_APP = "bounded";
export const UNBOUNDED_APP = "unbounded";
/** The bounded app again, on the hand-written `bare:` model instead of the AI SDK's (`bare-model.ts`). */
export const BARE_APP = "bare";
/** The bounded app's `maxHistoryEvents`; the baseline reads the same window. */
export const HISTORY_BOUND = 50;

/** A hand-written body check (no schema library on the baseline's path): each field has the named type. */
export function hasFields<T>(value: unknown, types: { [K in keyof T]: "string" | "number" }): value is T {
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(types).every(([key, type]) => typeof Reflect.get(value, key) === type);
}
