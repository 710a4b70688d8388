/*
 * A zod schema's JSON Schema in the shape ADK Python's automatic declaration builder gives the same
 * parameters (`_function_parameter_parse_util`): no `$schema`, no `additionalProperties: false` (ADK never
 * sends it), no safe-integer bounds (zod adds them to `.int()`; `int` in Python has none), an optional
 * `T | null` (`anyOf [T, null]`) as `T` with `nullable: true`, and no `parameters` at all for a function
 * with no arguments.
 */

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const SAFE_MIN = Number.MIN_SAFE_INTEGER;
const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/** One schema node, ADK-shaped. */
function shaped(node: Schema): Schema {
  const anyOf = node.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nonNull = anyOf.filter((option) => !(isSchema(option) && option.type === "null"));
    const [only] = nonNull;
    if (nonNull.length === 1 && isSchema(only)) {
      const { anyOf: _dropped, ...rest } = node;
      return { ...shaped(only), ...shapedFields(rest), nullable: true };
    }
  }
  return shapedFields(node);
}

function shapedFields(node: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || (key === "additionalProperties" && value === false)) continue;
    if (node.type === "integer" && key === "minimum" && value === SAFE_MIN) continue;
    if (node.type === "integer" && key === "maximum" && value === SAFE_MAX) continue;
    if (key === "properties" && isSchema(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, isSchema(child) ? shaped(child) : child]),
      );
    } else if (key === "items" && isSchema(value)) out.items = shaped(value);
    else if (key === "anyOf" && Array.isArray(value))
      out.anyOf = value.map((v) => (isSchema(v) ? shaped(v) : v));
    else out[key] = value;
  }
  return out;
}

/** The `parameters` of a tool whose arguments object has this JSON Schema; `undefined` when it takes none. */
export function adkParameters(jsonSchema: Schema): Schema | undefined {
  const properties = jsonSchema.properties;
  if (jsonSchema.type === "object" && (!isSchema(properties) || Object.keys(properties).length === 0)) {
    return undefined;
  }
  return shaped(jsonSchema);
}
