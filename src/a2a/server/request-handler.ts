import {
  type AgentCard,
  type CancelTaskRequest,
  type GetTaskRequest,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  TaskState,
} from "@a2a-js/sdk";
import {
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
} from "@a2a-js/sdk/errors";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import type { TaskFeedEntry, TaskKey, TaskRecord } from "../../core/task-store.js";
import { taskNotFound } from "./a2a-errors.js";
import { agentText } from "./messages.js";
import type { A2aServerDeps } from "./server-deps.js";
import { driveTask } from "./task-driver.js";
import { contextOfTask } from "./task-ids.js";
import { decodeTask, decodeUpdate, encodeTask, encodeUpdate } from "./task-json.js";
import { lastMessages, listTasks } from "./task-list.js";
import { startTask } from "./turn-start.js";

/** How many times a cancel re-reads a task that a running turn keeps writing to. */
const CANCEL_ATTEMPTS = 8;

/**
 * The A2A request handler over Baton: the SDK's JSON-RPC transport handlers (1.0 and 0.3) call it. Tasks
 * live in the session's store, not in this object, so every method works from any isolate; the turn runs
 * in the isolate that received the message and reaches followers through the store.
 */
export class BatonA2aRequestHandler implements A2ARequestHandler {
  constructor(private readonly deps: A2aServerDeps) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.deps.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError("This agent has no extended card.");
  }

  async sendMessage(params: SendMessageRequest): Promise<Message | Task> {
    const started = await startTask(this.deps, params.message, false);
    const run = driveTask(this.deps, started);
    if (params.configuration?.returnImmediately) this.deps.waitUntil(run);
    else await run;
    return withHistory(await this.#record(started.key), params.configuration?.historyLength);
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse> {
    const started = await startTask(this.deps, params.message, true);
    const feed = await this.deps.taskStore.followTask(started.key);
    // The turn outlives this stream: a client that drops it resubscribes and finds the task going on.
    this.deps.waitUntil(driveTask(this.deps, started));
    if (feed) yield* responses(feed);
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    return withHistory(await this.#record(this.#key(params.id)), params.historyLength);
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    const key = this.#key(params.id);
    for (let attempt = 0; attempt < CANCEL_ATTEMPTS; attempt++) {
      const record = await this.#record(key);
      const task = decodeTask(record.snapshot);
      if (record.phase === "terminal") {
        if (task.status?.state === TaskState.TASK_STATE_CANCELED) return task;
        throw new TaskNotCancelableError(`Task ${params.id} has already ended.`);
      }
      const written = await this.deps.taskStore.writeTask(key, canceled(this.deps, task), {
        expectSeq: record.seq,
        cancel: true,
      });
      if (written.ok) return decodeTask(written.record.snapshot);
    }
    throw new TaskNotCancelableError(`Task ${params.id} kept changing; try the cancel again.`);
  }

  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse> {
    const feed = await this.deps.taskStore.followTask(this.#key(params.id));
    if (!feed) throw taskNotFound(params.id);
    yield* responses(feed);
  }

  async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    return listTasks(this.deps, params);
  }

  async createTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError("Push notifications are not supported.");
  }

  async getTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError("Push notifications are not supported.");
  }

  async listTaskPushNotificationConfigs(): Promise<never> {
    throw new PushNotificationNotSupportedError("Push notifications are not supported.");
  }

  async deleteTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError("Push notifications are not supported.");
  }

  #key(taskId: string): TaskKey {
    const contextId = contextOfTask(taskId);
    if (contextId === null) throw taskNotFound(taskId);
    return {
      appName: this.deps.app.name,
      userId: this.deps.userIdFor(contextId),
      sessionId: contextId,
      taskId,
    };
  }

  async #record(key: TaskKey): Promise<TaskRecord> {
    const record = await this.deps.taskStore.getTask(key);
    if (!record) throw taskNotFound(key.taskId);
    return record;
  }
}

/** The canceled snapshot and its status update. */
function canceled(deps: A2aServerDeps, task: Task) {
  const ids = { messageId: deps.services.ids.uuid(), contextId: task.contextId, taskId: task.id };
  const message = agentText(ids, "The task was canceled by the client.");
  const status = {
    state: TaskState.TASK_STATE_CANCELED,
    message,
    timestamp: new Date(deps.services.clock.now()).toISOString(),
  };
  const snapshot: Task = { ...task, status };
  const update: StreamResponse = {
    payload: {
      $case: "statusUpdate",
      value: { taskId: task.id, contextId: task.contextId, status, metadata: undefined },
    },
  };
  return { snapshot: encodeTask(snapshot), phase: "terminal" as const, update: encodeUpdate(update) };
}

/** A feed as A2A stream responses: the snapshot as a `task`, then each update. */
async function* responses(feed: AsyncGenerator<TaskFeedEntry>): AsyncGenerator<StreamResponse> {
  for await (const entry of feed)
    yield entry.kind === "snapshot"
      ? { payload: { $case: "task", value: decodeTask(entry.snapshot) } }
      : decodeUpdate(entry.update);
}

/** `historyLength` (A2A §3.2.4): unset keeps all, 0 none, n the last n messages. */
function withHistory(record: TaskRecord, historyLength: number | undefined): Task {
  const task = decodeTask(record.snapshot);
  if (historyLength === undefined) return task;
  return { ...task, history: lastMessages(task.history, historyLength) };
}
