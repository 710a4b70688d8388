import { createMiddleware } from "hono/factory";
import { BatonError } from "../core/errors.js";
import { ID_LIMITS, type IdLimit, idProblem } from "../core/limits.js";
import { lookupTable } from "../core/lookup-table.js";
import type { HonoEnv } from "./types.js";

/** The path parameters that name stored things, with their limits (core/limits.ts). */
const PARAMS: Readonly<Record<string, IdLimit>> = lookupTable({
  app: ID_LIMITS.appName,
  user: ID_LIMITS.userId,
  session: ID_LIMITS.sessionId,
  artifact: ID_LIMITS.artifactName,
});

/** Where ADK's artifact routes are (`@baton-agents/core/cloudflare/artifacts`): their body cap and 501 use it. */
export const ARTIFACTS_PATH = "/apps/:app/users/:user/sessions/:session/artifacts";

/** The route patterns whose parameters `checkPathIds` checks (each with its `/dev` twin). */
export const ID_PATHS = [
  "/apps/:app/*",
  "/apps/:app/users/:user/*",
  "/apps/:app/users/:user/sessions/:session",
  "/apps/:app/users/:user/sessions/:session/*",
  "/apps/:app/users/:user/sessions/:session/artifacts/:artifact",
  "/apps/:app/users/:user/sessions/:session/artifacts/:artifact/*",
  "/debug/trace/session/:session",
] as const;

/** 400 naming the limit when an app, user, session or artifact in the path breaks it; nothing runs after. */
export const checkPathIds = createMiddleware<HonoEnv>(async (c, next) => {
  for (const [name, value] of Object.entries(c.req.param())) {
    const limit = PARAMS[name];
    const problem = limit && typeof value === "string" ? idProblem(limit, value) : null;
    if (problem !== null) throw new BatonError("invalid_request", `Refused the path's ${name}: ${problem}.`);
  }
  await next();
});
