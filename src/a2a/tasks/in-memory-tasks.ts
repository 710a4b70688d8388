import type { SessionKey } from "../../core/session.js";
import {
  MAX_PUSH_CONFIGS_PER_TASK,
  type PushConfig,
  type PushConfigSaved,
  type PushNotice,
  type TaskFeedEntry,
  type TaskKey,
  type TaskListPage,
  type TaskListQuery,
  type TaskPayload,
  type TaskRecord,
  type TaskSummary,
  type TaskWrite,
  type TaskWriteOptions,
  type TaskWriteResult,
} from "../../core/task-store.js";
import { feedQueue } from "./feed-queue.js";
import { TaskFeedHub } from "./task-feed-hub.js";
import { afterWrite, endsFeed, judgeOpen, judgeWrite, snapshotEntry, updateEntry } from "./task-rules.js";
import { taskSummaryOf } from "./task-summary.js";

interface IndexRow extends TaskSummary {
  taskId: string;
  userId: string;
  snapshot: TaskPayload;
}

const sessionOf = (key: SessionKey): string => JSON.stringify([key.appName, key.userId, key.sessionId]);

/** The tasks of every session of an `InMemorySessionStore`, with the same rules as the Durable Object's. */
export class InMemoryTasks {
  /** session → task id → record (insertion order = creation order). */
  readonly #records = new Map<string, Map<string, TaskRecord>>();
  readonly #updates = new Map<string, TaskPayload[]>();
  readonly #hub = new TaskFeedHub();
  /** Every task by app, as the Durable Object's app index keeps it. */
  readonly #index = new Map<string, Map<string, IndexRow>>();
  /** Each task's push configs, by the task's feed id. */
  readonly #push = new Map<string, PushConfig[]>();

  /** `onPush` gets each stored write once per config of its task (a store in Node has no queue). */
  constructor(private readonly onPush?: (notice: PushNotice) => void) {}

  open(key: TaskKey, invocationId: string, write: TaskWrite): TaskWriteResult {
    const current = this.get(key);
    const verdict = judgeOpen(current);
    if (verdict !== "insert" && verdict !== "resume") return { ok: false, reason: verdict };
    const base: TaskRecord = current ?? {
      taskId: key.taskId,
      invocationId,
      phase: "active",
      seq: 0,
      snapshot: write.snapshot,
      cancelRequested: false,
    };
    return this.#commit(key, { ...base, invocationId }, write, {});
  }

  get(key: TaskKey): TaskRecord | undefined {
    const record = this.#records.get(sessionOf(key))?.get(key.taskId);
    return record && structuredClone(record);
  }

  write(key: TaskKey, write: TaskWrite, options: TaskWriteOptions): TaskWriteResult {
    const current = this.get(key);
    const refusal = judgeWrite(current, options);
    if (refusal || !current) return refusal ?? { ok: false, reason: "missing" };
    return this.#commit(key, current, write, options);
  }

  publish(key: TaskKey, update: TaskPayload): void {
    this.#hub.publish(this.#feedId(key), updateEntry(null, "active", { update: structuredClone(update) }));
  }

  follow(key: TaskKey): AsyncGenerator<TaskFeedEntry> | null {
    const current = this.get(key);
    if (!current) return null;
    let remove = (): void => undefined;
    const queue = feedQueue(() => remove());
    const first = snapshotEntry(current);
    queue.push(first);
    if (!endsFeed(first))
      remove = this.#hub.add(this.#feedId(key), (entry) => queue.push(structuredClone(entry)));
    return queue.entries;
  }

  active(key: SessionKey): string | null {
    const records = [...(this.#records.get(sessionOf(key))?.values() ?? [])];
    return records.reverse().find((r) => r.phase === "active")?.taskId ?? null;
  }

  canceledBy(key: SessionKey, invocationId: string): string | undefined {
    const records = this.#records.get(sessionOf(key))?.values() ?? [];
    return [...records].find((r) => r.invocationId === invocationId && r.cancelRequested)?.taskId;
  }

  /** A page of the app's tasks, filtered and ordered as the app object's index does it. */
  list(query: TaskListQuery): TaskListPage {
    const { after } = query;
    const matching = [...(this.#index.get(query.appName)?.values() ?? [])]
      .filter(
        (row) =>
          (query.userId === undefined || row.userId === query.userId) &&
          (query.contextId === undefined || row.contextId === query.contextId) &&
          (query.state === undefined || row.state === query.state) &&
          (query.statusTimeFrom === undefined || row.statusTime >= query.statusTimeFrom),
      )
      .sort((a, b) => b.statusTime - a.statusTime || (b.taskId < a.taskId ? -1 : 1));
    const rest = after
      ? matching.filter(
          (row) =>
            row.statusTime < after.statusTime ||
            (row.statusTime === after.statusTime && row.taskId < after.taskId),
        )
      : matching;
    const page = rest.slice(0, query.pageSize);
    const last = page.at(-1);
    return {
      snapshots: page.map((row) => structuredClone(row.snapshot)),
      totalSize: matching.length,
      next: rest.length > page.length && last ? { statusTime: last.statusTime, taskId: last.taskId } : null,
    };
  }

  savePushConfig(key: TaskKey, config: PushConfig): PushConfigSaved {
    if (!this.get(key)) return "missing";
    const configs = this.#push.get(this.#feedId(key)) ?? [];
    const at = configs.findIndex((c) => c.id === config.id);
    if (at < 0 && configs.length >= MAX_PUSH_CONFIGS_PER_TASK) return "full";
    const saved = structuredClone(config);
    this.#push.set(this.#feedId(key), at < 0 ? [...configs, saved] : configs.with(at, saved));
    return "saved";
  }

  pushConfigs(key: TaskKey): PushConfig[] | null {
    return this.get(key) ? structuredClone(this.#push.get(this.#feedId(key)) ?? []) : null;
  }

  deletePushConfig(key: TaskKey, configId: string): boolean {
    if (!this.get(key)) return false;
    const configs = this.#push.get(this.#feedId(key)) ?? [];
    this.#push.set(
      this.#feedId(key),
      configs.filter((c) => c.id !== configId),
    );
    return true;
  }

  /** Drops a deleted session's tasks from the app's index. */
  forget(key: SessionKey): void {
    const rows = this.#index.get(key.appName);
    for (const [taskId, row] of rows ?? [])
      if (row.userId === key.userId && row.contextId === key.sessionId) rows?.delete(taskId);
  }

  /** The stored updates of a task, in order (tests). */
  updatesOf(key: TaskKey): TaskPayload[] {
    return structuredClone(this.#updates.get(this.#feedId(key)) ?? []);
  }

  #feedId = (key: TaskKey): string => JSON.stringify([key.appName, key.userId, key.sessionId, key.taskId]);

  #commit(key: TaskKey, current: TaskRecord, write: TaskWrite, options: TaskWriteOptions): TaskWriteResult {
    const record = structuredClone(afterWrite(current, write, options));
    const session = this.#records.get(sessionOf(key)) ?? new Map<string, TaskRecord>();
    session.set(key.taskId, record);
    this.#records.set(sessionOf(key), session);
    const rows = this.#index.get(key.appName) ?? new Map<string, IndexRow>();
    const row = { ...taskSummaryOf(record.snapshot), taskId: key.taskId, userId: key.userId };
    rows.set(key.taskId, { ...row, snapshot: structuredClone(record.snapshot) });
    this.#index.set(key.appName, rows);
    const feedId = this.#feedId(key);
    this.#updates.set(feedId, [...(this.#updates.get(feedId) ?? []), structuredClone(write.update)]);
    this.#hub.publish(feedId, updateEntry(record.seq, record.phase, structuredClone(write)));
    for (const config of this.#push.get(feedId) ?? [])
      this.onPush?.({ key: { ...key }, config: structuredClone(config), record: structuredClone(record) });
    return { ok: true, record: structuredClone(record) };
  }
}
