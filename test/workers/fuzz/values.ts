import type { Random } from "./prng.js";

/** Keys that have broken servers before: prototype names, ADK state prefixes, odd characters. */
export const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "app:__proto__",
  "user:constructor",
  "app:x",
  "user:y",
  "temp:z",
  "",
  "a.b",
  "🙂",
  "\u0000",
  "toString",
  "hasOwnProperty",
] as const;

const STRINGS = [
  "",
  " ",
  "null",
  "undefined",
  "0",
  "-1",
  "1e309",
  "e-00000000-0000",
  "../../etc/passwd",
  "<script>",
  "%00",
  "\u0000",
  "\ud800",
  "🙂🙂",
  "user",
  "model",
  "root",
  "transfer_to_agent",
] as const;

/** A JSON-able value drawn from the edge cases, sometimes nested a little (and once in a while, very deep). */
export function randomValue(r: Random, depth = 0): unknown {
  switch (r.int(depth > 2 ? 6 : 9)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, -0]);
    case 3:
      return r.pick(STRINGS);
    case 4:
      return "x".repeat(r.pick([1, 100, 10_000]));
    case 5:
      return r.pick(HOSTILE_KEYS);
    case 6:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    case 7:
      return Object.fromEntries(
        Array.from({ length: r.int(4) }, () => [r.pick(HOSTILE_KEYS), randomValue(r, depth + 1)]),
      );
    default:
      return deepValue(r.pick([10, 63, 65, 200]));
  }
}

/** `levels` nested objects. */
export function deepValue(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { k: value };
  return value;
}
