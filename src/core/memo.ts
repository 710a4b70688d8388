import { deepFreeze } from "./frozen.js";

/** The slot's key: a symbol, non-enumerable, so JSON, spreads, `structuredClone` and zod never see or copy it. */
const SLOT = Symbol("baton.memo");

type Slot = Record<symbol, unknown>;

const slotOf = (value: object): Slot | undefined => {
  const slot: unknown = Reflect.get(value, SLOT);
  return typeof slot === "object" && slot !== null ? (slot as Slot) : undefined; // SAFETY: only `frozenWithMemo` sets it, to a `Slot`.
};

/**
 * Deep-freezes `value` after giving it a private, mutable memo slot: what readers derive from a stored
 * event (its history content, its prompt message) is then computed once and kept with the event itself,
 * for as long as the event lives. A plain property, not a `WeakMap`: with many sessions in memory a
 * `WeakMap` of every event made each garbage collection markedly slower (docs/benchmarks.md).
 */
export function frozenWithMemo<T extends object>(value: T): T {
  if (!Object.isFrozen(value) && slotOf(value) === undefined)
    Object.defineProperty(value, SLOT, { value: {}, enumerable: false });
  return deepFreeze(value);
}

/** Whether `value` has a memo slot (`frozenWithMemo` gave it one), so what is derived from it is kept. */
export const hasMemo = (value: object): boolean => slotOf(value) !== undefined;

/**
 * `compute(value)`, kept in `value`'s memo slot under `key` when it has one (a frozen, stored value);
 * computed afresh for any other value. `key` is the caller's own symbol, so callers never collide. A
 * module-level `compute` that takes the value makes no closure per call on a hot path.
 */
export function memoized<V extends object, T>(value: V, key: symbol, compute: (value: V) => T): T {
  const slot = slotOf(value);
  if (slot === undefined) return compute(value);
  if (key in slot) return slot[key] as T; // SAFETY: only this function writes `key`, with a `T`.
  const computed = compute(value);
  slot[key] = computed;
  return computed;
}
