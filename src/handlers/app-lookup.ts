import type { Context } from "hono";
import { BatonError } from "../core/errors.js";
import type { App } from "../runner/app.js";
import type { HonoEnv } from "./types.js";

/** The app a request names, or a 404 that says which apps exist. */
export function appNamed(c: Context<HonoEnv>, name: string): App {
  const app = c.var.deps.apps.get(name);
  if (app) return app;
  const known = [...c.var.deps.apps.keys()].join(", ");
  throw new BatonError("app_not_found", `App not found: ${name}. Known apps: ${known}.`);
}
