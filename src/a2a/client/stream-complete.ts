import { taskStateName } from "../protocol/task-state.js";
import type { ResponseItem } from "./response-item.js";

const SETTLED = new Set(["completed", "failed", "canceled", "rejected", "input-required", "auth-required"]);

/** A terminal or interrupted state: the task no longer works on its own. */
export const isSettledState = (state: string | number): boolean => SETTLED.has(taskStateName(state));

/**
 * Whether a stream that ended on `last` ended properly: on a message, on a terminal or interrupted task
 * state, or on a 0.3 `final` status update. Anything else is a stream cut half-way.
 */
export function isStreamComplete(last: ResponseItem | undefined): boolean {
  if (last === undefined) return false;
  if (last.kind === "message") return true;
  if (last.kind === "status" && last.update.final === true) return true;
  return isSettledState(last.task.status.state);
}
