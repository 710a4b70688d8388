import { z } from "zod";
import type { ToolContext } from "../../../src/agents/callback-context.js";
import type { FunctionTool } from "../../../src/agents/function-tool.js";

/** The Python annotations of a tool's parameters, as JSON Schema type names. */
export type PythonType = "string" | "integer" | "number" | "boolean";

const ZOD_OF: Record<PythonType, z.ZodType> = {
  string: z.string(),
  integer: z.number().int(),
  number: z.number(),
  boolean: z.boolean(),
};

/** A Python function ported as a tool: its name, its docstring, its annotated parameters (all required). */
export interface PythonToolConfig {
  name: string;
  /** The function's docstring, verbatim: ADK sends it as the tool's description. */
  docstring: string;
  /** Each parameter and its annotation, in signature order. */
  parameters: Readonly<Record<string, PythonType>>;
  execute: (args: Record<string, unknown>, ctx: ToolContext) => unknown;
}

/**
 * A `FunctionTool` that declares itself as ADK Python's automatic function declaration does for a
 * plain function (description = docstring; an object of the annotated parameters, all required, with no
 * `additionalProperties`), so a replayed request's tool declarations match the recorded ones.
 */
export function pythonTool(config: PythonToolConfig): FunctionTool {
  const names = Object.keys(config.parameters);
  const schema = z.object(
    Object.fromEntries(names.map((n) => [n, ZOD_OF[config.parameters[n] ?? "string"]])),
  );
  const parameters = {
    type: "object",
    properties: Object.fromEntries(names.map((n) => [n, { type: config.parameters[n] }])),
    required: names,
  };
  return {
    name: config.name,
    description: config.docstring,
    isLongRunning: false,
    declaration: () => ({ name: config.name, description: config.docstring, parameters }),
    async run(args, ctx) {
      const parsed = schema.safeParse(args);
      if (!parsed.success)
        return { ok: false, error: `Invalid arguments for ${config.name}: ${z.prettifyError(parsed.error)}` };
      return { ok: true, value: await config.execute(parsed.data, ctx) };
    },
  };
}

/** Python's `str(type(value))` for a JSON value (`<class 'int'>`, `<class 'str'>`, …). */
export function pythonTypeName(value: unknown): string {
  if (typeof value === "boolean") return "<class 'bool'>";
  if (typeof value === "number") return Number.isInteger(value) ? "<class 'int'>" : "<class 'float'>";
  if (typeof value === "string") return "<class 'str'>";
  if (value === null || value === undefined) return "<class 'NoneType'>";
  return Array.isArray(value) ? "<class 'list'>" : "<class 'dict'>";
}
