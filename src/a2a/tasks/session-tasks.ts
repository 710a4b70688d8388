import type {
  TaskFeedEntry,
  TaskPayload,
  TaskRecord,
  TaskWrite,
  TaskWriteOptions,
  TaskWriteResult,
} from "../../core/task-store.js";
import { TaskFeedHub } from "./task-feed-hub.js";
import { afterWrite, endsFeed, judgeOpen, judgeWrite, snapshotEntry, updateEntry } from "./task-rules.js";
import {
  SELECT_ACTIVE_TASK,
  SELECT_ANY_CANCELED,
  SELECT_CANCELED_INVOCATION,
  SELECT_TASK,
  saveTask,
} from "./task-sql.js";

const encoder = new TextEncoder();
const line = (entry: TaskFeedEntry): Uint8Array => encoder.encode(`${JSON.stringify(entry)}\n`);

/**
 * The session object's tasks: each write commits the snapshot and its update in one transaction, then goes
 * to the live followers. Followers are held in this object's memory; a follower whose object restarts sees
 * its stream end with an error and subscribes again (getting the snapshot as it then stands).
 */
export class SessionTasks {
  readonly #hub = new TaskFeedHub();
  /** How each open feed is ended from this side, by follower id (`unfollow`). */
  readonly #stops = new Map<string, () => void>();
  /** Whether any task here was ever canceled; read once, then kept, so plain appends skip the lookup. */
  #anyCanceled: boolean | undefined;

  constructor(private readonly storage: DurableObjectStorage) {}

  open(taskId: string, invocationId: string, write: TaskWrite): TaskWriteResult {
    const current = this.get(taskId);
    const verdict = judgeOpen(current);
    if (verdict !== "insert" && verdict !== "resume") return { ok: false, reason: verdict };
    const base: TaskRecord = current ?? {
      taskId,
      invocationId,
      phase: "active",
      seq: 0,
      snapshot: write.snapshot,
      cancelRequested: false,
    };
    return this.#commit({ ...base, invocationId }, write, {});
  }

  get(taskId: string): TaskRecord | undefined {
    return SELECT_TASK.first(this.storage.sql, taskId);
  }

  write(taskId: string, write: TaskWrite, options: TaskWriteOptions): TaskWriteResult {
    const current = this.get(taskId);
    const refusal = judgeWrite(current, options);
    if (refusal || !current) return refusal ?? { ok: false, reason: "missing" };
    return this.#commit(current, write, options);
  }

  publish(taskId: string, update: TaskPayload): void {
    this.#hub.publish(taskId, updateEntry(null, "active", { update }));
  }

  /**
   * NDJSON of feed entries: the snapshot now, then each later update, until the feed ends or `unfollow`
   * ends it (so a follower that stops early never cuts the stream from its side).
   */
  follow(taskId: string, followerId: string): ReadableStream<Uint8Array> | null {
    const current = this.get(taskId);
    if (!current) return null;
    let remove = (): void => undefined;
    const forget = () => {
      remove();
      this.#stops.delete(followerId);
    };
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        const end = () => {
          forget();
          controller.close();
        };
        const first = snapshotEntry(current);
        controller.enqueue(line(first));
        if (endsFeed(first)) return controller.close();
        remove = this.#hub.add(taskId, (entry) => {
          controller.enqueue(line(entry));
          if (endsFeed(entry)) end();
        });
        this.#stops.set(followerId, end);
      },
      cancel: forget,
    });
  }

  /** Ends the feed `follow` opened for `followerId`; one already ended is left alone. */
  unfollow(followerId: string): void {
    this.#stops.get(followerId)?.();
  }

  active(): string | null {
    return SELECT_ACTIVE_TASK.first(this.storage.sql)?.task_id ?? null;
  }

  /** The task whose cancel flagged this invocation, if any. */
  canceledBy(invocationId: string): string | undefined {
    this.#anyCanceled ??= SELECT_ANY_CANCELED.first(this.storage.sql) !== undefined;
    if (!this.#anyCanceled) return undefined;
    return SELECT_CANCELED_INVOCATION.first(this.storage.sql, invocationId)?.task_id;
  }

  #commit(current: TaskRecord, write: TaskWrite, options: TaskWriteOptions): TaskWriteResult {
    const record = afterWrite(current, write, options);
    this.storage.transactionSync(() => saveTask(this.storage.sql, record, write.update));
    if (record.cancelRequested) this.#anyCanceled = true;
    this.#hub.publish(record.taskId, updateEntry(record.seq, record.phase, write));
    return { ok: true, record };
  }
}
