import type { SessionKey } from "../core/session.js";
import type {
  TaskFeedEntry,
  TaskKey,
  TaskPayload,
  TaskRecord,
  TaskWrite,
  TaskWriteOptions,
  TaskWriteResult,
} from "../core/task-store.js";
import { feedQueue } from "./feed-queue.js";
import { TaskFeedHub } from "./task-feed-hub.js";
import { afterWrite, endsFeed, judgeOpen, judgeWrite, snapshotEntry, updateEntry } from "./task-rules.js";

const sessionOf = (key: SessionKey): string => JSON.stringify([key.appName, key.userId, key.sessionId]);

/** The tasks of every session of an `InMemorySessionStore`, with the same rules as the Durable Object's. */
export class InMemoryTasks {
  /** session → task id → record (insertion order = creation order). */
  readonly #records = new Map<string, Map<string, TaskRecord>>();
  readonly #updates = new Map<string, TaskPayload[]>();
  readonly #hub = new TaskFeedHub();

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
    const feedId = this.#feedId(key);
    this.#updates.set(feedId, [...(this.#updates.get(feedId) ?? []), structuredClone(write.update)]);
    this.#hub.publish(feedId, updateEntry(record.seq, record.phase, structuredClone(write)));
    return { ok: true, record: structuredClone(record) };
  }
}
