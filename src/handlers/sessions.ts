import { Hono } from "hono";
import { BatonError } from "../core/errors.js";
import { createEvent } from "../core/event.js";
import type { SessionKey } from "../core/session.js";
import { systemServices } from "../runner/system-services.js";
import { appNamed } from "./app-lookup.js";
import { readBody } from "./read-body.js";
import { CreateSessionBodySchema, PatchSessionBodySchema } from "./schemas.js";
import type { HonoEnv } from "./types.js";

const keyOf = (p: { app: string; user: string; session: string }): SessionKey => ({
  appName: p.app,
  userId: p.user,
  sessionId: p.session,
});

const missing = (sessionId: string) => new BatonError("session_not_found", `Session not found: ${sessionId}`);

/** ADK's session endpoints under `/apps/:app/users/:user/sessions` (ADK-SEMANTICS §6.1). */
export const sessions = new Hono<HonoEnv>()
  .post("/apps/:app/users/:user/sessions", async (c) => {
    const { app, user } = c.req.param();
    appNamed(c, app);
    const body = await readBody(c, CreateSessionBodySchema, { optional: true });
    const store = c.var.deps.sessionStore;
    const session = await store.createSession({
      appName: app,
      userId: user,
      ...(body.sessionId == null ? {} : { sessionId: body.sessionId }),
      ...(body.state == null ? {} : { state: body.state }),
    });
    const key = { appName: app, userId: user, sessionId: session.id };
    for (const event of body.events ?? []) await store.appendEvent(key, event);
    return c.json(body.events?.length ? await store.getSession(key) : session);
  })
  .get("/apps/:app/users/:user/sessions", async (c) => {
    const { app, user } = c.req.param();
    appNamed(c, app);
    return c.json(await c.var.deps.sessionStore.listSessions(app, user));
  })
  .get("/apps/:app/users/:user/sessions/:session", async (c) => {
    const params = c.req.param();
    appNamed(c, params.app);
    const session = await c.var.deps.sessionStore.getSession(keyOf(params));
    if (!session) throw missing(params.session);
    return c.json(session);
  })
  .patch("/apps/:app/users/:user/sessions/:session", async (c) => {
    const params = c.req.param();
    appNamed(c, params.app);
    const { stateDelta } = await readBody(c, PatchSessionBodySchema);
    const store = c.var.deps.sessionStore;
    const services = { ...systemServices(), ...c.var.deps.services };
    // ADK records a state patch as a user event in a `p-` invocation.
    const event = createEvent(
      { invocationId: `p-${services.ids.uuid()}`, author: "user", actions: { stateDelta } },
      services,
    );
    await store.appendEvent(keyOf(params), event);
    const session = await store.getSession(keyOf(params));
    if (!session) throw missing(params.session);
    return c.json(session);
  })
  .delete("/apps/:app/users/:user/sessions/:session", async (c) => {
    const params = c.req.param();
    appNamed(c, params.app);
    await c.var.deps.sessionStore.deleteSession(keyOf(params));
    return c.json(null);
  });
