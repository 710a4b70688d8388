import { Hono } from "hono";
import { BatonError } from "../core/errors.js";
import { addSessionInPages } from "../memory/add-session-pages.js";
import { readBody } from "./read-body.js";
import { UpdateMemoryBodySchema } from "./schemas.js";
import type { AppScopedEnv } from "./types.js";

/**
 * ADK's `PATCH /apps/:app/users/:user/memory` (`{sessionId}`): adds that session's events to the user's
 * memory, answering `null` as ADK does; 400 without a memory service, 404 for an unknown session. The user
 * guard runs first, so an end user adds only their own sessions to their own memory.
 */
export const memory = new Hono<AppScopedEnv>().patch("/apps/:app/users/:user/memory", async (c) => {
  const { sessionId } = await readBody(c, UpdateMemoryBodySchema);
  const { services, sessionStore } = c.var.deps;
  if (!services.memory) throw new BatonError("invalid_request", "Memory service is not configured.");
  const key = { appName: c.var.app.name, userId: c.req.param("user"), sessionId };
  await addSessionInPages(sessionStore, services.memory, key);
  return c.json(null);
});
