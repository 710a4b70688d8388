import * as z from "zod";

/** Where in which file a config problem is: `root_agent.yaml: tools[1].name: …`. */
export const configMessage = (file: string, field: string, problem: string): string =>
  `${file}: ${field === "" ? "" : `${field}: `}${problem}`;

/** A path like `tools[1].args.agent` from zod's issue path. */
export const fieldPath = (path: readonly PropertyKey[]): string =>
  path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`))
    .join("");

/** The object schema at `path` below `schema` (through arrays, optionals, records), if there is one. */
function objectAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodObject | undefined {
  let node: unknown = schema;
  for (const key of path) {
    while (node instanceof z.ZodOptional) node = node.unwrap();
    if (node instanceof z.ZodArray && typeof key === "number") node = node.element;
    else if (node instanceof z.ZodObject && typeof key === "string") node = node.shape[key];
    else return undefined;
  }
  while (node instanceof z.ZodOptional) node = node.unwrap();
  return node instanceof z.ZodObject ? node : undefined;
}

/**
 * zod's issues as one line each, `file: field: problem`. An unknown key names what the object accepts,
 * so a misspelt field reads as `unknown field "sub_agent"; accepted: agent_class, name, …`.
 */
export function issueLines(file: string, schema: z.ZodType, error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code !== "unrecognized_keys") {
      return [configMessage(file, fieldPath(issue.path), issue.message)];
    }
    const accepted = Object.keys(objectAt(schema, issue.path)?.shape ?? {}).join(", ");
    return issue.keys.map((key) =>
      configMessage(file, fieldPath([...issue.path, key]), `unknown field "${key}"; accepted: ${accepted}`),
    );
  });
}

/** An Agent Config file that cannot be built: the message names the file, the field and what is accepted. */
export class AgentConfigError extends Error {
  override readonly name = "AgentConfigError";
}
