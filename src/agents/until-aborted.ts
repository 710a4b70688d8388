/**
 * `work`, or its signal's abort reason as soon as `signal` aborts: a step that ignores the signal (a tool
 * that does not pass it on) no longer holds a stopped turn. The work itself runs on unobserved.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * `items`, stopping with the abort reason as soon as `signal` aborts, even while a read waits: a stream
 * whose transport ignores the signal (a fetch handled in the same isolate) no longer holds a stopped turn.
 * The source is closed on the way out.
 */
export async function* untilAbortedEach<T>(items: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await untilAborted(iterator.next(), signal);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    if (signal.aborted) void iterator.return?.(undefined)?.catch(() => undefined);
  }
}
