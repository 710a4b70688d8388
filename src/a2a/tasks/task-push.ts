import * as z from "zod";
import {
  MAX_PUSH_CONFIGS_PER_TASK,
  type PushConfig,
  type PushConfigSaved,
  PushConfigSchema,
  type PushDelivery,
  type TaskRecord,
} from "../../core/task-store.js";
import type { SessionMeta } from "../../session/session-cache.js";
import { Command, parseJson, Query } from "../../storage/sql.js";

/** Migration step: the push configs of the session's tasks (A2A push notifications), in the order set. */
export const PUSH_CONFIG_TABLE_SQL = `CREATE TABLE task_push_configs (
     task_id TEXT NOT NULL,
     config_id TEXT NOT NULL,
     json TEXT NOT NULL,
     PRIMARY KEY (task_id, config_id)
   );`;

const ConfigRow = z
  .object({ json: z.string() })
  .transform((row) => PushConfigSchema.parse(parseJson(row.json)));

/** rowid keeps the order configs were first saved in: an upsert updates the row in place. */
const SELECT_CONFIGS = new Query<[taskId: string], PushConfig>(
  "SELECT json FROM task_push_configs WHERE task_id = ? ORDER BY rowid",
  ConfigRow,
);
const SELECT_ANY = new Query<[], { task_id: string }>(
  "SELECT task_id FROM task_push_configs LIMIT 1",
  z.object({ task_id: z.string() }),
);
const UPSERT_CONFIG = new Command<[taskId: string, configId: string, json: string]>(
  `INSERT INTO task_push_configs (task_id, config_id, json) VALUES (?1, ?2, ?3)
   ON CONFLICT (task_id, config_id) DO UPDATE SET json = ?3`,
);
const DELETE_CONFIG = new Command<[taskId: string, configId: string]>(
  "DELETE FROM task_push_configs WHERE task_id = ? AND config_id = ?",
);

/** The queue a session object hands task writes to (wrangler `queues.producers` binding `A2A_PUSH`). */
export interface PushQueue {
  sendBatch(messages: Iterable<MessageSendRequest<PushDelivery>>): Promise<unknown>;
}

/** The `A2A_PUSH` producer from the object's env, or `null` when the Worker has none. */
export function pushQueueOf(env: object): PushQueue | null {
  const queue: unknown = Reflect.get(env, "A2A_PUSH");
  if (typeof queue !== "object" || queue === null || typeof Reflect.get(queue, "sendBatch") !== "function")
    return null;
  // SAFETY: the binding wrangler.toml declares under this name is a Queue producer of push deliveries.
  return queue as PushQueue;
}

/**
 * The push configs of a session's tasks, and their deliveries: after a task write commits, one queue
 * message per config of the task. The queue's consumer reads the task and the config when it delivers, so a
 * config deleted meanwhile gets nothing more (A2A 1.0 §3.1.10).
 */
export class TaskPushConfigs {
  /** Whether any config was ever saved here; read once, then kept, so plain task writes skip the lookup. */
  #any: boolean | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly queue: () => PushQueue | null,
  ) {}

  save(taskId: string, config: PushConfig): PushConfigSaved {
    const configs = this.list(taskId);
    if (!configs.some((c) => c.id === config.id) && configs.length >= MAX_PUSH_CONFIGS_PER_TASK)
      return "full";
    UPSERT_CONFIG.run(this.storage.sql, taskId, config.id, JSON.stringify(config));
    this.#any = true;
    return "saved";
  }

  list(taskId: string): PushConfig[] {
    return SELECT_CONFIGS.all(this.storage.sql, taskId);
  }

  delete(taskId: string, configId: string): void {
    DELETE_CONFIG.run(this.storage.sql, taskId, configId);
  }

  /**
   * Queues one delivery per config of the written task. A failed send is logged, not thrown: the write is
   * stored, and the task's next write is delivered (each delivery carries the task as it then stands).
   */
  async notify(session: SessionMeta, record: TaskRecord): Promise<void> {
    this.#any ??= SELECT_ANY.first(this.storage.sql) !== undefined;
    if (!this.#any) return;
    const configs = this.list(record.taskId);
    if (configs.length === 0) return;
    const queue = this.queue();
    if (!queue) {
      console.warn(`Task ${record.taskId} has push configs but the Worker has no A2A_PUSH queue.`);
      return;
    }
    const { appName, userId, sessionId } = session;
    const messages = configs.map((config) => ({
      body: { appName, userId, sessionId, taskId: record.taskId, configId: config.id, seq: record.seq },
      contentType: "json" as const,
    }));
    try {
      await queue.sendBatch(messages);
    } catch (error) {
      console.warn(`Push deliveries of task ${record.taskId} could not be queued: ${String(error)}`);
    }
  }
}
