import { ID_LIMITS } from "../../core/limits.js";
import type { TaskKey } from "../../core/task-store.js";
import { assertA2aId, taskNotFound } from "./a2a-errors.js";
import type { A2aServerDeps } from "./server-deps.js";
import { contextOfTask } from "./task-ids.js";

/** Where a task a client names is stored: its id names its context, the context its session. */
export function taskKeyOf(deps: A2aServerDeps, taskId: string): TaskKey {
  assertA2aId(ID_LIMITS.taskId, taskId, "the task id");
  const contextId = contextOfTask(taskId);
  if (contextId === null) throw taskNotFound(taskId);
  return { appName: deps.app.name, userId: deps.userIdFor(contextId), sessionId: contextId, taskId };
}
