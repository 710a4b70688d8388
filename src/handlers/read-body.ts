import type { Context } from "hono";
import type { z } from "zod";
import { BatonError } from "../core/errors.js";
import { readGuardedJson } from "../core/json-guard.js";

/**
 * Parses a JSON body with a zod schema; a bad body is a 400 that names the fields at fault. Bodies nesting
 * deeper than `MAX_JSON_DEPTH` or holding `__proto__`/`constructor`/`prototype` keys are 400 too.
 */
export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { optional?: boolean } = {},
): Promise<z.output<S>> {
  // UTF-8 whatever the Content-Type says (`text()` always decodes UTF-8): JSON text, as ADK's server reads it.
  const raw = await c.req.text();
  // The one body guard (core/json-guard.ts): depth and hostile keys first, so the schema (and everything
  // after it) only sees a safe shape. The route's byte cap was kept while the body was read (capped-body.ts).
  const json = options.optional && raw.trim() === "" ? {} : readGuardedJson(raw);
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
  throw new BatonError("invalid_request", `Invalid request body: ${fields.join("; ")}`);
}
