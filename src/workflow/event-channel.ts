import type { Event } from "../core/event.js";

interface Item {
  event: Event;
  stored: () => void;
  failed: (error: unknown) => void;
}

/**
 * Where a workflow's nodes put their events, in the order they come, for the one reader that yields them
 * to the runner. `push` settles once the reader was asked for the next event, which the runner does only
 * after it stored this one: a node never goes on before its event is in the session (decision 049), as
 * `mergeRuns` keeps parallel agents from getting ahead of the log.
 */
export class EventChannel {
  private readonly items: Item[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;

  /** Hands `event` to the reader; resolves when it was taken and stored, rejects when the channel closed. */
  push(event: Event): Promise<void> {
    if (this.ended) return Promise.reject(this.failure?.error ?? new Error("The workflow stopped."));
    return new Promise<void>((stored, failed) => {
      this.items.push({ event, stored, failed });
      this.wake?.();
    });
  }

  /** No more events: the reader ends once it drained what was pushed. */
  close(): void {
    this.ended = true;
    this.wake?.();
  }

  /** Ends the reader with `error` (after what was pushed) and refuses later pushes with it. */
  fail(error: unknown): void {
    this.failure = { error };
    this.close();
  }

  /** Stops early (the reader left): every waiting and later push is refused with `reason`. */
  abandon(reason: unknown): void {
    this.failure = this.failure ?? { error: reason };
    this.ended = true;
    for (const item of this.items.splice(0)) item.failed(reason);
  }

  /** The events as they come; each push settles when the next one is asked for. */
  async *drain(): AsyncGenerator<Event> {
    let current: Item | undefined;
    try {
      for (;;) {
        current = this.items.shift();
        if (current) {
          yield current.event;
          current.stored();
          current = undefined;
          continue;
        }
        if (this.ended) {
          if (this.failure) throw this.failure.error;
          return;
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
      }
    } finally {
      // The reader left early (the turn was stopped): nothing it was handed is stored, nothing more will be.
      const stopped = new Error("The workflow's events are no longer read.");
      current?.failed(stopped);
      if (!this.ended) this.abandon(stopped);
    }
  }
}
