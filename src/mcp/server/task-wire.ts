import { type Task, TaskState } from "@a2a-js/sdk";

/** Where a served tool's task keeps its outcome, its input and its creation time in its (A2A) metadata. */
export const RESULT_KEY = "mcp_result";
export const ERROR_KEY = "mcp_error";
export const CREATED_KEY = "mcp_created_at";
export const INPUT_KEY = "mcp_input";

/** How often a client should poll `tasks/get` (ms). */
const POLL_INTERVAL_MS = 1000;

/** MCP task statuses. */
export type McpTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** One A2A state as an MCP task status. */
function statusOf(task: Task): McpTaskStatus {
  switch (task.status?.state) {
    case TaskState.TASK_STATE_COMPLETED:
      return "completed";
    case TaskState.TASK_STATE_CANCELED:
      return "cancelled";
    case TaskState.TASK_STATE_FAILED:
    case TaskState.TASK_STATE_REJECTED:
      return "failed";
    case TaskState.TASK_STATE_INPUT_REQUIRED:
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return "input_required";
    default:
      return "working";
  }
}

/** What every task answer carries: id, status and times (tasks live as long as their session: no ttl). */
export function taskFields(task: Task, createdAt: string) {
  const parts = task.status?.message?.parts ?? [];
  const statusMessage = parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
  return {
    taskId: task.id,
    status: statusOf(task),
    ...(statusMessage === "" ? {} : { statusMessage }),
    createdAt,
    lastUpdatedAt: task.status?.timestamp ?? createdAt,
    ttlMs: null,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
}

/** A `CreateTaskResult` (SEP-2663): the task, flat, with `resultType: "task"`. */
export type CreateTaskAnswer = { resultType: "task" } & ReturnType<typeof taskFields>;

/** A new task as `tools/call` answers it. */
export const createTaskAnswer = (task: Task, createdAt: string): CreateTaskAnswer => ({
  resultType: "task",
  ...taskFields(task, createdAt),
});
