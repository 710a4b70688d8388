import { BatonError } from "./errors.js";

/** How deep a request's JSON may nest (objects and arrays); deeper is refused before anything is stored. */
export const MAX_JSON_DEPTH = 64;

/**
 * Keys refused wherever an object or a state key arrives: on a plain object they reach for its prototype,
 * and `Object.assign`/`obj[key] = v` with them changes what every later write does.
 */
export const FORBIDDEN_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

const forbidden = new Set(FORBIDDEN_KEYS);

/**
 * Refuses (`invalid_request`, 400) a value nesting deeper than `MAX_JSON_DEPTH` or holding a forbidden key
 * at any depth, naming the path (`where`) and the key. Iterative, so a hostile depth cannot overflow the stack.
 */
export function assertSafeShape(value: unknown, where = "body"): void {
  const stack: [node: unknown, depth: number, path: string][] = [[value, 0, where]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth, path] = next;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= MAX_JSON_DEPTH)
      throw new BatonError("invalid_request", `${path} nests deeper than ${MAX_JSON_DEPTH} levels.`);
    const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
    for (const [key, child] of entries) {
      if (!Array.isArray(node) && forbidden.has(key))
        throw new BatonError("invalid_request", `Refused key "${key}" in ${path}.`);
      stack.push([child, depth + 1, depth < 8 ? `${path}.${key}` : path.endsWith("…") ? path : `${path}.…`]);
    }
  }
}

/**
 * Refuses a state map whose keys (whole, or after an `app:`/`user:`/`temp:` prefix) are forbidden, or whose
 * values are unsafe as `assertSafeShape` judges them. `where` names the map in the error.
 */
export function assertSafeState(state: Readonly<Record<string, unknown>>, where = "state"): void {
  for (const [key, value] of Object.entries(state)) {
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
