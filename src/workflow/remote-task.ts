import type { Event } from "../core/event.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The state of the A2A task a remote agent's event came from, in A2A 0.3's spelling (`completed`,
 * `input-required`, `failed`, …; 1.0's `TASK_STATE_INPUT_REQUIRED` read the same), from the `a2a:response`
 * the client stores on it (ADK-SEMANTICS §5.3: the task, or its snapshot for an update). `undefined` for a
 * reply with no task (a message) or an event that is not a remote reply.
 */
export function remoteTaskState(event: Event): string | undefined {
  const response = event.customMetadata?.["a2a:response"];
  if (!isRecord(response) || !isRecord(response.status)) return undefined;
  const state = response.status.state;
  if (typeof state !== "string") return undefined;
  return state
    .replace(/^TASK_STATE_/, "")
    .toLowerCase()
    .replace(/_/g, "-");
}
