/**
 * Recorded genai/ADK objects are snake_case (pydantic field names); Baton's wire and types are camelCase.
 * Only the model's own field names are renamed: the keys inside user data (tool `args`, a function's
 * `response`, state, state deltas, custom metadata, schema `properties`) belong to the user and stay.
 */

export const snakeToCamel = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Fields (camelCase) whose value is user data, copied as it is. */
const USER_DATA = new Set([
  "args",
  "response",
  "state",
  "stateDelta",
  "artifactDelta",
  "customMetadata",
  "requestedAuthConfigs",
  "requestedToolConfirmations",
  "agentState",
  "headers",
  "labels",
]);

/** Fields whose keys are user names (property names) but whose values are schemas again. */
const NAMED_SCHEMAS = new Set(["properties", "defs", "$defs"]);

/**
 * snake_case → camelCase for genai/ADK model fields, recursively; `null` fields are dropped as pydantic's
 * `exclude_none` does (a `null` inside user data is kept: `{"result": null}` is a value).
 */
export function genaiToCamel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(genaiToCamel);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === null) continue;
    const camel = snakeToCamel(key);
    if (USER_DATA.has(camel)) out[camel] = structuredClone(field);
    else if (NAMED_SCHEMAS.has(camel) && isRecord(field)) {
      out[camel] = Object.fromEntries(Object.entries(field).map(([name, s]) => [name, genaiToCamel(s)]));
    } else out[camel] = genaiToCamel(field);
  }
  return out;
}

/** A deep copy without `undefined` fields: what the value looks like after a JSON round trip. */
export const asJson = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));
