import type { A2aTaskStatus } from "../protocol/a2a-objects.js";
import { isFailedState } from "../protocol/task-state.js";
import type { EventDraft, ResponseItem } from "./response-item.js";

/** The `errorMessage` of a failed task whose status carries no text (ADK-SEMANTICS §5.7). */
export const TASK_FAILED_FALLBACK = "Remote A2A task failed";

/**
 * The status an item itself carries, when it says `failed` (§5.7 point 1): a Task's own status, a status
 * update's status. Messages and artifact updates are never failed, whatever the task snapshot says.
 */
export function failedStatusOf(item: ResponseItem): A2aTaskStatus | undefined {
  const status =
    item.kind === "task" ? item.task.status : item.kind === "status" ? item.update.status : undefined;
  return status && isFailedState(status.state) ? status : undefined;
}

/** The failed status's own message text, its text parts joined with "\n"; never artifacts or history. */
export function failureText(status: A2aTaskStatus): string {
  const text = (status.message?.parts ?? [])
    .flatMap((p) => (p.text === undefined ? [] : [p.text]))
    .join("\n");
  return text.trim() === "" ? TASK_FAILED_FALLBACK : text;
}

/**
 * Marks the event of a failed item as an error (§5.7), whichever converter made it: `errorCode`
 * `A2A_TASK_FAILED` unless the converter set one, `errorMessage` from the status's own message, content
 * kept. A failed item the converter made no event for gets one, so a failure is never silent.
 */
export function markFailedTask(item: ResponseItem, draft: EventDraft | undefined): EventDraft | undefined {
  const status = failedStatusOf(item);
  if (status === undefined) return draft;
  return {
    ...draft,
    errorCode: draft?.errorCode ?? "A2A_TASK_FAILED",
    errorMessage: failureText(status),
  };
}
