/**
 * A task id names its context, so any isolate can find the task's session from the id alone (`tasks/get`
 * carries nothing else): a fresh id (no `:` in it), `:`, then the context id.
 */
export const newTaskId = (uuid: string, contextId: string): string => `${uuid}:${contextId}`;

/** The context id inside a task id, or `null` when the id was not made by `newTaskId`. */
export function contextOfTask(taskId: string): string | null {
  const colon = taskId.indexOf(":");
  return colon > 0 && colon < taskId.length - 1 ? taskId.slice(colon + 1) : null;
}
