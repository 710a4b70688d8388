/**
 * Freezes a JSON-shaped value and everything it holds, in place, and returns it. Stored events and state
 * values are immutable once stored (decision 021), so stores can hand the same objects to every reader:
 * a reader that tries to change one gets a `TypeError` (modules run in strict mode) instead of silently
 * changing what every later turn reads. An object a caller froze only shallowly is still walked, so what
 * it holds is frozen too.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  Object.freeze(value);
  // Index and `for…in` loops, not `Object.values`: this runs for every stored event and allocates nothing.
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  else for (const key in value) deepFreeze(value[key]);
  return value;
}
