/**
 * Task states compared SDK-neutrally (ADK-SEMANTICS §5.7 point 1): A2A 0.3 spells them `failed`,
 * 1.0 `TASK_STATE_FAILED`, and the JS SDK's objects hold the enum number.
 */
export type TaskStateName =
  | "submitted"
  | "working"
  | "completed"
  | "failed"
  | "canceled"
  | "input-required"
  | "rejected"
  | "auth-required"
  | "unknown";

const BY_NUMBER: readonly TaskStateName[] = [
  "unknown",
  "submitted",
  "working",
  "completed",
  "failed",
  "canceled",
  "input-required",
  "rejected",
  "auth-required",
];

/** The state's 0.3 name, whatever spelling it arrived in; anything unrecognised is `unknown`. */
export function taskStateName(state: string | number | undefined): TaskStateName {
  if (typeof state === "number") return BY_NUMBER[state] ?? "unknown";
  if (state === undefined) return "unknown";
  const name = state
    .replace(/^TASK_STATE_/i, "")
    .toLowerCase()
    .replace(/_/g, "-")
    .replace("cancelled", "canceled");
  return BY_NUMBER.find((n) => n === name) ?? "unknown";
}

export const isFailedState = (state: string | number | undefined): boolean =>
  taskStateName(state) === "failed";
