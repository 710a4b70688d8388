import { type $ZodType, ZodCompileUnsupportedError } from "zod/v4/core";

/** `compile`'s options, as zod declares them. */
export interface CompileOptions {
  /** Throw the refusal instead of returning the schema uncompiled. */
  strict?: boolean;
}

/**
 * zod's `compile` as it behaves on Workers, without its code generator (~30 KB minified): the generated
 * parser needs `new Function`, which Workers forbid, so zod hands the schema back on its runtime parser,
 * or throws `ZodCompileUnsupportedError` under `strict`. So does this.
 */
export function compile<T extends $ZodType>(schema: T, options?: CompileOptions): T {
  if (options?.strict) compileFn(schema);
  return schema;
}

/** zod's internal code generator, on Workers: it can never evaluate what it generates, so it always refuses. */
export function compileFn(_schema: $ZodType, _options?: unknown): never {
  throw new ZodCompileUnsupportedError(
    "this schema (generated code cannot be evaluated: Workers forbid `new Function`)",
    false,
  );
}
