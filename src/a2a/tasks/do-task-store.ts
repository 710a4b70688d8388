import type { SessionKey } from "../../core/session.js";
import type {
  PushConfig,
  PushConfigSaved,
  TaskFeedEntry,
  TaskKey,
  TaskListPage,
  TaskListQuery,
  TaskPayload,
  TaskRecord,
  TaskStore,
  TaskWrite,
  TaskWriteOptions,
  TaskWriteResult,
} from "../../core/task-store.js";
import type { SessionStoreEnv } from "../../session/do-store.js";
import { feedLines } from "../../storage/feed-lines.js";
import { appObjectName, sessionObjectName } from "../../storage/object-names.js";
import { remote } from "../../storage/rpc-result.js";

/**
 * The `TaskStore` on Durable Objects: each task lives in its session's `SessionObject`, beside the events,
 * so any isolate reads it, cancels it and follows it (a stream the object writes as updates commit).
 */
export class DurableObjectTaskStore implements TaskStore {
  constructor(private readonly env: Pick<SessionStoreEnv, "SESSIONS" | "APPS">) {}

  async openTask(key: TaskKey, invocationId: string, write: TaskWrite): Promise<TaskWriteResult> {
    return this.#session(key).openTask(key.taskId, invocationId, write);
  }

  async getTask(key: TaskKey): Promise<TaskRecord | null> {
    return this.#session(key).getTask(key.taskId);
  }

  async writeTask(key: TaskKey, write: TaskWrite, options: TaskWriteOptions = {}): Promise<TaskWriteResult> {
    return this.#session(key).writeTask(key.taskId, write, options);
  }

  async publishTask(key: TaskKey, update: TaskPayload): Promise<void> {
    await this.#session(key).publishTask(key.taskId, update);
  }

  async followTask(key: TaskKey): Promise<AsyncGenerator<TaskFeedEntry> | null> {
    const session = this.#session(key);
    const followerId = crypto.randomUUID();
    const stream = await session.followTask(key.taskId, followerId);
    return stream && feedLines(stream, () => session.unfollowTask(followerId));
  }

  async activeTask(key: SessionKey): Promise<string | null> {
    return this.#session(key).activeTask();
  }

  async listTasks({ appName, ...query }: TaskListQuery): Promise<TaskListPage> {
    return remote(this.env.APPS.getByName(appObjectName(appName))).listTasks(query);
  }

  async savePushConfig(key: TaskKey, config: PushConfig): Promise<PushConfigSaved> {
    return this.#session(key).savePushConfig(key.taskId, config);
  }

  async pushConfigs(key: TaskKey): Promise<PushConfig[] | null> {
    return this.#session(key).pushConfigs(key.taskId);
  }

  async deletePushConfig(key: TaskKey, configId: string): Promise<boolean> {
    return this.#session(key).deletePushConfig(key.taskId, configId);
  }

  /** The task as it stands and one of its configs (the push consumer's read); `null` when either is gone. */
  async pushTarget(
    key: TaskKey,
    configId: string,
  ): Promise<{ record: TaskRecord; config: PushConfig } | null> {
    return this.#session(key).pushTarget(key.taskId, configId);
  }

  #session(key: SessionKey) {
    return remote(this.env.SESSIONS.getByName(sessionObjectName(key)));
  }
}
