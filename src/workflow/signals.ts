import type { SignalSource } from "../core/signal-source.js";

/**
 * An abort signal of a workflow or a node attempt, joined to its parent's, made only when something reads
 * it (decision 043: a turn whose model and tools never look at the signal makes none). `stop` works before
 * or after the signal was made.
 */
export class LazyAbort implements SignalSource<AbortSignal> {
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #reason: unknown;
  #stopped = false;
  #whenStopped: Promise<never> | undefined;
  #reject: ((reason: unknown) => void) | undefined;

  constructor(private readonly parent: SignalSource<AbortSignal>) {}

  /** Rejects with the stop's reason once it stops (made when first asked for). */
  get whenStopped(): Promise<never> {
    if (this.#whenStopped === undefined) {
      this.#whenStopped = this.#stopped
        ? Promise.reject(this.#reason)
        : new Promise<never>((_, reject) => {
            this.#reject = reject;
          });
      this.#whenStopped.catch(() => undefined);
    }
    return this.#whenStopped;
  }

  /** A deadline's length in seconds (a node attempt's timeout); `undefined` for a workflow's stop. */
  timeout: number | undefined;

  get stopped(): boolean {
    return this.#stopped;
  }

  get reason(): unknown {
    return this.#reason;
  }

  stop(reason: unknown): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#reject?.(reason);
  }

  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const controller = new AbortController();
      if (this.#stopped) controller.abort(this.#reason);
      const parent = this.parent.signal;
      this.#controller = controller;
      this.#signal = parent ? AbortSignal.any([parent, controller.signal]) : controller.signal;
    }
    return this.#signal;
  }
}
