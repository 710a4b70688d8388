/** ADK accepts snake_case and camelCase on input (pydantic `populate_by_name`); Baton does the same. */

/** `state_delta` → `stateDelta`; a camelCase key is returned unchanged. */
export const snakeToCamel = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Normalises one level of a wire object: snake_case keys become camelCase and `null` values are dropped
 * (Python clients send `null` for unset fields). Only this level is touched: the keys inside free-form
 * maps such as `stateDelta`, `args` or `response` belong to the user and are never renamed.
 */
export function normalizeWireKeys(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null) continue;
    const camel = snakeToCamel(key);
    // A camelCase key wins over its snake_case twin when a client sends both.
    if (camel !== key && camel in value) continue;
    out[camel] = v;
  }
  return out;
}
