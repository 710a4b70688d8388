import { BatonError } from "./errors.js";

/** How deep a request's JSON may nest (objects and arrays); deeper is refused before anything is stored. */
export const MAX_JSON_DEPTH = 64;

/**
 * Keys refused wherever an object or a state key arrives: on a plain object they reach for its prototype,
 * and `Object.assign`/`obj[key] = v` with them changes what every later write does.
 */
export const FORBIDDEN_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

const forbidden = new Set(FORBIDDEN_KEYS);

/** Where a refused node sits: `where`, then its first 8 keys, then `.…` for anything deeper. */
function pathOf(where: string, keys: readonly (string | number)[]): string {
  let path = where;
  for (let i = 0; i < keys.length && i < 8; i++) path += `.${keys[i]}`;
  return keys.length > 8 ? `${path}.…` : path;
}

/** Where a value's shape is unsafe: the message naming it, and the path (keys and indexes) to the node. */
export interface ShapeProblem {
  message: string;
  path: readonly (string | number)[];
}

/**
 * The first node of `value` nesting deeper than `MAX_JSON_DEPTH` or holding a forbidden key at any depth, as
 * a message naming the path (`where`, then the keys) and the key; `null` for a safe shape. The recursion
 * stops at `MAX_JSON_DEPTH`, so a hostile depth cannot overflow the stack; the path is spelled out only for
 * a refusal, so a check allocates nothing.
 */
export function shapeProblem(value: unknown, where = "body"): ShapeProblem | null {
  const keys: (string | number)[] = [];
  const walk = (node: unknown, depth: number): string | null => {
    if (typeof node !== "object" || node === null) return null;
    if (depth >= MAX_JSON_DEPTH) return `${pathOf(where, keys)} nests deeper than ${MAX_JSON_DEPTH} levels.`;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        keys.push(i);
        const found = walk(node[i], depth + 1);
        if (found !== null) return found;
        keys.pop();
      }
      return null;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (forbidden.has(key)) return `Refused key "${key}" in ${pathOf(where, keys)}.`;
      keys.push(key);
      const found = walk(Reflect.get(node, key), depth + 1);
      if (found !== null) return found;
      keys.pop();
    }
    return null;
  };
  const message = walk(value, 0);
  return message === null ? null : { message, path: keys };
}

/**
 * Refuses (`invalid_request`, 400) a value nesting deeper than `MAX_JSON_DEPTH` or holding a forbidden key
 * at any depth (`shapeProblem`), naming the path (`where`) and the key.
 */
export function assertSafeShape(value: unknown, where = "body"): void {
  const problem = shapeProblem(value, where);
  if (problem !== null) throw new BatonError("invalid_request", problem.message);
}

/**
 * Refuses a state map whose keys (whole, or after an `app:`/`user:`/`temp:` prefix) are forbidden, or whose
 * values are unsafe as `assertSafeShape` judges them. `where` names the map in the error.
 */
export function assertSafeState(state: Readonly<Record<string, unknown>>, where = "state"): void {
  for (const key in state) {
    if (!Object.hasOwn(state, key)) continue;
    const value = state[key];
    const bare = key.replace(/^(app|user|temp):/, "");
    if (forbidden.has(bare) || forbidden.has(key))
      throw new BatonError("invalid_request", `Refused state key "${key}" in ${where}.`);
    assertSafeShape(value, `${where}.${key}`);
  }
}

/**
 * Refuses a new session's initial `state` or any seed event's delta or content that `assertSafeState` /
 * `assertSafeShape` refuse. Stores call it before their first write, so a refused create leaves nothing.
 */
export function assertSafeSeeds(
  state: Readonly<Record<string, unknown>> | undefined,
  events: readonly { actions: { stateDelta: Readonly<Record<string, unknown>> } }[] | undefined,
): void {
  assertSafeState(state ?? {}, "state");
  (events ?? []).forEach((event, i) => {
    assertSafeShape(event, `events.${i}`);
    assertSafeState(event.actions.stateDelta, `events.${i}.actions.stateDelta`);
  });
}
