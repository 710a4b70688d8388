/**
 * Where a call's abort signal comes from, read only when asked. A turn's signal is made on its first read
 * (`runner/turn-cancel.ts`: in Node an `AbortSignal` costs ~4 µs and lives until a full garbage
 * collection), so each layer between the turn and a model's `abortSignal` passes the read on rather than
 * reading it: a turn whose model and tools never look at the signal makes none. (Generic over the signal's
 * type: this folder names no platform type.)
 */
export interface SignalSource<Signal = unknown> {
  readonly signal?: Signal | undefined;
}

const SOURCE = Symbol("signal source");

/** One getter for every object `withLazySignal` gives one: the objects then share their hidden class. */
function readSignal(this: { [SOURCE]: SignalSource }): unknown {
  return this[SOURCE].signal;
}

/**
 * `target` with an own, enumerable `key` that reads `source.signal` each time it is read: spreads, `JSON` and
 * destructuring see the signal, but nothing makes it until one of them does.
 */
export function withLazySignal<T extends object>(target: T, key: string, source: SignalSource): T {
  Object.defineProperty(target, SOURCE, { value: source });
  Object.defineProperty(target, key, { get: readSignal, enumerable: true, configurable: true });
  return target;
}
