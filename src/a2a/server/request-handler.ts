import {
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
  TaskState,
} from "@a2a-js/sdk";
import { ExtendedAgentCardNotConfiguredError, TaskNotCancelableError } from "@a2a-js/sdk/errors";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import type { PushConfig, TaskFeedEntry, TaskKey, TaskRecord } from "../../core/task-store.js";
import { taskNotFound } from "./a2a-errors.js";
import { agentText } from "./messages.js";
import {
  checkedPushConfig,
  createPushConfig,
  deletePushConfig,
  getPushConfig,
  listPushConfigs,
  savePushConfig,
} from "./push-configs.js";
import type { A2aServerDeps } from "./server-deps.js";
import { driveTask } from "./task-driver.js";
import { decodeTask, decodeUpdate, encodeTask, encodeUpdate } from "./task-json.js";
import { taskKeyOf } from "./task-key.js";
import { lastMessages, listTasks } from "./task-list.js";
import { type StartedTask, startTask } from "./turn-start.js";

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

  async sendMessage(params: SendMessageRequest, context?: ServerCallContext): Promise<Message | Task> {
    const push = this.#inlinePush(params, context);
    const started = await startTask(this.deps, params.message, false);
    await this.#savePush(started, push);
    const run = driveTask(this.deps, started);
    if (params.configuration?.returnImmediately) this.deps.waitUntil(run);
    else await run;
    return withHistory(await this.#record(started.key), params.configuration?.historyLength);
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context?: ServerCallContext,
  ): AsyncGenerator<StreamResponse> {
    const push = this.#inlinePush(params, context);
    const started = await startTask(this.deps, params.message, true);
    await this.#savePush(started, push);
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

  async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context?: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return createPushConfig(this.deps, params, versionOf(context));
  }

  async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
  ): Promise<TaskPushNotificationConfig> {
    return getPushConfig(this.deps, params);
  }

  async listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return listPushConfigs(this.deps, params);
  }

  async deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest): Promise<void> {
    return deletePushConfig(this.deps, params);
  }

  /**
   * A config given with the message (`configuration.taskPushNotificationConfig`), checked before anything
   * runs: with push notifications off, or a refused URL, the message starts no task.
   */
  #inlinePush(params: SendMessageRequest, context: ServerCallContext | undefined): PushConfig | null {
    const inline = params.configuration?.taskPushNotificationConfig;
    return inline ? checkedPushConfig(this.deps, inline, versionOf(context)) : null;
  }

  /**
   * Stores the message's config with its task before the turn writes anything it would be told of. A
   * refusal (a resumed task that has all the configs it may have) is the client's error, but the task is
   * open by then: its turn still runs to its end, so the task does not stay `working` for ever.
   */
  async #savePush(started: StartedTask, config: PushConfig | null): Promise<void> {
    if (!config) return;
    try {
      await savePushConfig(this.deps, started.key, config);
    } catch (error) {
      this.deps.waitUntil(driveTask(this.deps, started));
      throw error;
    }
  }

  #key(taskId: string): TaskKey {
    return taskKeyOf(this.deps, taskId);
  }

  async #record(key: TaskKey): Promise<TaskRecord> {
    const record = await this.deps.taskStore.getTask(key);
    if (!record) throw taskNotFound(key.taskId);
    return record;
  }
}

/** The A2A version a call came over (the JSON-RPC handler says; HTTP+JSON is 1.0). */
const versionOf = (context: ServerCallContext | undefined): string => context?.requestedVersion ?? "1.0";

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
