import {
  type ListTasksRequest,
  type ListTasksResponse,
  type Task,
  TaskState,
  taskStateToJSON,
} from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { guardJson } from "../../core/json-guard.js";
import { type TaskCursor, TaskCursorSchema, type TaskListQuery } from "../../core/task-store.js";
import type { A2aServerDeps } from "./server-deps.js";
import { decodeTask } from "./task-json.js";

/** `pageSize` when the request leaves it out, and the most one page holds (A2A 1.0 `ListTasksRequest`). */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** A page token is the cursor of the page's last task, base64url JSON: opaque to clients, checked here. */
export const encodePageToken = (cursor: TaskCursor): string =>
  btoa(JSON.stringify(cursor)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");

function decodePageToken(token: string): TaskCursor {
  let text = "";
  try {
    text = atob(token.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    text = "";
  }
  // A token is the client's JSON too: through the one body guard (core/json-guard.ts).
  const guarded = guardJson(text, { where: "pageToken" });
  const cursor = TaskCursorSchema.safeParse(guarded.ok ? guarded.value : undefined);
  if (!cursor.success) throw new RequestMalformedError(`Invalid pageToken "${token}": use a nextPageToken.`);
  return cursor.data;
}

/**
 * `ListTasks` (A2A 1.0 §3.1.4) over the app's task index: newest status first, filtered by context, state
 * and status time, in pages of `pageSize` linked by `nextPageToken` (`""` on the last). Each task's history
 * is cut to `historyLength`; artifacts are left out unless `includeArtifacts`. The parameters' ranges were
 * checked at the binding (`-32602`); the page token is checked here.
 */
export async function listTasks(deps: A2aServerDeps, params: ListTasksRequest): Promise<ListTasksResponse> {
  const after = params.pageToken ? decodePageToken(params.pageToken) : undefined;
  const from = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : Number.NaN;
  const query: TaskListQuery = {
    appName: deps.app.name,
    pageSize: params.pageSize ?? DEFAULT_PAGE_SIZE,
    ...(deps.listUserId === undefined ? {} : { userId: deps.listUserId }),
    ...(params.contextId ? { contextId: params.contextId } : {}),
    ...(params.status !== TaskState.TASK_STATE_UNSPECIFIED ? { state: taskStateToJSON(params.status) } : {}),
    ...(Number.isNaN(from) ? {} : { statusTimeFrom: from }),
    ...(after ? { after } : {}),
  };
  const page = await deps.taskStore.listTasks(query);
  const tasks = page.snapshots.map((snapshot) =>
    shown(decodeTask(snapshot), params.historyLength, params.includeArtifacts === true),
  );
  return {
    tasks,
    nextPageToken: page.next ? encodePageToken(page.next) : "",
    pageSize: tasks.length,
    totalSize: page.totalSize,
  };
}

/** A task as a listing shows it. */
function shown(task: Task, historyLength: number | undefined, withArtifacts: boolean): Task {
  const history = historyLength === undefined ? task.history : lastMessages(task.history, historyLength);
  return { ...task, history, artifacts: withArtifacts ? task.artifacts : [] };
}

/** `historyLength` (A2A §3.2.4): 0 none, n the last n. */
export const lastMessages = <T>(history: T[], historyLength: number): T[] =>
  historyLength > 0 ? history.slice(-historyLength) : [];
