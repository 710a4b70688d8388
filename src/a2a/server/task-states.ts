import { TaskState } from "@a2a-js/sdk";
import type { TaskPhase } from "../../core/task-store.js";

const TERMINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
const INTERRUPTED = new Set([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

/** The storage phase of an A2A task state (A2A 1.0 §3.1: terminal and interrupted states). */
export function phaseOf(state: TaskState): TaskPhase {
  if (TERMINAL.has(state)) return "terminal";
  return INTERRUPTED.has(state) ? "interrupted" : "active";
}
