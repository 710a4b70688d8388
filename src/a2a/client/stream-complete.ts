import { taskStateName } from "../protocol/task-state.js";
import type { ResponseItem } from "./response-item.js";

const SETTLED = new Set(["completed", "failed", "canceled", "rejected", "input-required", "auth-required"]);

/**
 * Whether a stream that ended on `last` ended properly: on a message, on a terminal or interrupted task
 * state, or on a 0.3 `final` status update. Anything else is a stream cut half-way.
 */
export function isStreamComplete(last: ResponseItem | undefined): boolean {
  if (last === undefined) return false;
  if (last.kind === "message") return true;
  if (last.kind === "status" && last.update.final === true) return true;
  return SETTLED.has(taskStateName(last.task.status.state));
}
