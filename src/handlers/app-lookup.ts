import { createMiddleware } from "hono/factory";
import { BatonError } from "../core/errors.js";
import type { App } from "../runner/app.js";
import type { AppScopedEnv } from "./types.js";

/** The app named `name`, or a 404 `app_not_found` that says which apps exist. */
export function findApp(apps: ReadonlyMap<string, App>, name: string): App {
  const app = apps.get(name);
  if (app) return app;
  const known = [...apps.keys()].join(", ");
  throw new BatonError("app_not_found", `App not found: ${name}. Known apps: ${known}.`);
}

/** Resolves `/apps/:app/*` once for every route below it: the app on the context, or the 404. */
export const resolveApp = createMiddleware<AppScopedEnv, "/apps/:app/*">(async (c, next) => {
  c.set("app", findApp(c.var.deps.apps, c.req.param("app")));
  await next();
});
