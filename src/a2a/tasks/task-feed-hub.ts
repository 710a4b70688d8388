import type { TaskFeedEntry } from "../../core/task-store.js";
import { endsFeed } from "./task-rules.js";

/** Receives one entry; returns nothing. A throwing listener is dropped. */
export type FeedListener = (entry: TaskFeedEntry) => void;

/**
 * The live followers of each task, in this process (or this Durable Object). A follower is added with the
 * snapshot it was sent, so it sees every later update exactly once, and removed after the entry that ends
 * the feed.
 */
export class TaskFeedHub {
  readonly #listeners = new Map<string, Set<FeedListener>>();

  /** Registers `listener` for the task's next entries; returns the function that removes it. */
  add(taskId: string, listener: FeedListener): () => void {
    const set = this.#listeners.get(taskId) ?? new Set<FeedListener>();
    set.add(listener);
    this.#listeners.set(taskId, set);
    return () => this.#remove(taskId, listener);
  }

  /** Hands `entry` to every follower of the task; those it ends (or that throw) are removed. */
  publish(taskId: string, entry: TaskFeedEntry): void {
    for (const listener of [...(this.#listeners.get(taskId) ?? [])]) {
      try {
        listener(entry);
      } catch {
        this.#remove(taskId, listener);
        continue;
      }
      if (endsFeed(entry)) this.#remove(taskId, listener);
    }
  }

  /** How many followers the task has (tests, diagnostics). */
  count(taskId: string): number {
    return this.#listeners.get(taskId)?.size ?? 0;
  }

  #remove(taskId: string, listener: FeedListener): void {
    const set = this.#listeners.get(taskId);
    set?.delete(listener);
    if (set?.size === 0) this.#listeners.delete(taskId);
  }
}
