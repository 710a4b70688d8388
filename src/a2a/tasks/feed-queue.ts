import type { TaskFeedEntry } from "../../core/task-store.js";
import { endsFeed } from "./task-rules.js";

/**
 * Turns pushed feed entries into an async generator: entries wait in order until read; the generator ends
 * after the entry that ends the feed. `onClose` runs once, when it ends or the reader stops early.
 */
export function feedQueue(onClose: () => void): {
  push(entry: TaskFeedEntry): void;
  entries: AsyncGenerator<TaskFeedEntry>;
} {
  const waiting: TaskFeedEntry[] = [];
  let wake: (() => void) | undefined;
  const push = (entry: TaskFeedEntry): void => {
    waiting.push(entry);
    wake?.();
  };
  async function* read(): AsyncGenerator<TaskFeedEntry> {
    try {
      while (true) {
        const entry = waiting.shift();
        if (entry === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        yield entry;
        if (endsFeed(entry)) return;
      }
    } finally {
      onClose();
    }
  }
  return { push, entries: read() };
}
