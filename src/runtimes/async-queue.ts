/**
 * A one-consumer queue that turns a callback-driven loop (`onStepFinish`, event listeners) into an
 * async iterable: items come out in order as they are pushed; `close` ends it, `fail` ends it with an error.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private done = false;
  private error: { cause: unknown } | undefined;
  private wake: (() => void) | undefined;

  push(item: T): void {
    this.items.push(item);
    this.notify();
  }

  close(): void {
    this.done = true;
    this.notify();
  }

  fail(cause: unknown): void {
    this.error = { cause };
    this.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) yield item;
      else if (this.error) throw this.error.cause;
      else if (this.done) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
