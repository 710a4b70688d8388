import type { Context } from "hono";

/**
 * The Worker's `ctx.waitUntil`, which keeps work alive after the response; `undefined` where the runtime
 * passed no execution context (Node, Hono's `app.request`), so the caller decides how such work runs.
 */
export function waitUntilOf(c: Context): ((work: Promise<unknown>) => void) | undefined {
  let ctx: Pick<ExecutionContext, "waitUntil">;
  try {
    ctx = c.executionCtx;
  } catch {
    return undefined; // Hono throws when the runtime passed no execution context.
  }
  return (work) => ctx.waitUntil(work);
}
