/**
 * A lookup table whose keys come from outside (a method name, a metric, a word): an object without a
 * prototype, frozen. A key such as `toString`, `constructor` or `__proto__` finds nothing in it, where a
 * plain object literal would hand back `Object.prototype`'s (decision 048; `npm run rooms` and
 * `test/unit/lint/lookup-tables.test.ts` find plain literals read with such keys).
 * @example
 * const PARAMS = lookupTable({ SendMessage: MessageParams }); PARAMS["toString"] // undefined
 */
export function lookupTable<T extends Record<string, unknown>>(entries: T): Readonly<T> {
  // SAFETY: a null-prototype object that `Object.assign` gives exactly the own entries of `entries`.
  const table = Object.assign(Object.create(null) as T, entries);
  return Object.freeze(table);
}
