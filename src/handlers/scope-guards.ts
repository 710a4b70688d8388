import { createMiddleware } from "hono/factory";
import { assertMayActAs, assertMayUseApp, callerOf } from "./caller.js";
import type { HonoEnv } from "./types.js";

/** `/apps/:app/*` (and `/dev/apps/:app/*`): 403 when the caller's token does not cover the app. */
export const guardApp = createMiddleware<HonoEnv, "/apps/:app/*">(async (c, next) => {
  assertMayUseApp(callerOf(c), c.req.param("app"));
  await next();
});

/** `/apps/:app/users/:user/*` (and its `/dev` twin): 403 unless the caller may act as `:user` in `:app`. */
export const guardUser = createMiddleware<HonoEnv, "/apps/:app/users/:user/*">(async (c, next) => {
  assertMayActAs(callerOf(c), c.req.param("app"), c.req.param("user"));
  await next();
});
