import { type Context, Hono } from "hono";
import { BatonError } from "../core/errors.js";
import type { SessionKey } from "../core/session.js";
import { EVAL_SESSION_ID_PREFIX } from "../evals/eval-session.js";
import type { App } from "../runner/app.js";
import { SessionsService } from "../runner/sessions-service.js";
import { assertNoAppState, callerOf } from "./caller.js";
import { eventPageQuery, eventWindowQuery, nextPageHeaders, sessionPageQuery } from "./page-query.js";
import { readBody } from "./read-body.js";
import { CreateSessionBodySchema, PatchSessionBodySchema } from "./schemas.js";
import { sseResponse } from "./sse-response.js";
import type { AppScopedEnv } from "./types.js";

type SessionsContext = Context<AppScopedEnv>;

/** Invocation ids Baton makes are `e-` and a UUID; a longer one in a path is refused before any read. */
const MAX_INVOCATION_ID = 128;

const serviceOf = (c: SessionsContext): SessionsService =>
  new SessionsService(c.var.deps.sessionStore, c.var.deps.services);

const keyOf = (app: App, params: { user: string; session: string }): SessionKey => ({
  appName: app.name,
  userId: params.user,
  sessionId: params.session,
});

/** ADK's session endpoints under `/apps/:app/users/:user/sessions` (ADK-SEMANTICS §6.1); `resolveApp` runs first. */
export const sessions = new Hono<AppScopedEnv>()
  .post("/apps/:app/users/:user/sessions", async (c) => {
    const body = await readBody(c, CreateSessionBodySchema, { optional: true });
    const { sessionId, state, events } = body;
    const caller = callerOf(c);
    assertNoAppState(caller, state, "state");
    events?.forEach((event, i) => {
      assertNoAppState(caller, event.actions.stateDelta, `events.${i}.actions.stateDelta`);
    });
    const session = await serviceOf(c).create({
      appName: c.var.app.name,
      userId: c.req.param("user"),
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(state === undefined ? {} : { state }),
      ...(events === undefined ? {} : { events }),
    });
    return c.json(session);
  })
  // One page (decision 046): the body is its array, the next page's token is in headers. The sessions eval
  // runs make are left out, as ADK's server leaves them out; each is still read by id.
  .get("/apps/:app/users/:user/sessions", async (c) => {
    const page = await serviceOf(c).list(c.var.app.name, c.req.param("user"), sessionPageQuery(c));
    nextPageHeaders(c, page.nextPageToken);
    return c.json(page.sessions.filter((s) => !s.id.startsWith(EVAL_SESSION_ID_PREFIX)));
  })
  // At most `EVENT_PAGE_LIMITS.maxPerRead` events, the newest; `Events-Truncated` says older ones exist.
  .get("/apps/:app/users/:user/sessions/:session", async (c) => {
    const read = await serviceOf(c).get(keyOf(c.var.app, c.req.param()), eventWindowQuery(c));
    if (read.truncated) c.header("Events-Truncated", "true");
    return c.json(read.session);
  })
  // The whole log, oldest first, a page at a time (decision 046).
  .get("/apps/:app/users/:user/sessions/:session/events", async (c) => {
    const store = c.var.deps.sessionStore;
    if (!store.listEvents) throw new BatonError("not_supported", "This session store cannot page events");
    const page = await store.listEvents(keyOf(c.var.app, c.req.param()), eventPageQuery(c));
    nextPageHeaders(c, page.nextPageToken);
    return c.json(page.events);
  })
  .patch("/apps/:app/users/:user/sessions/:session", async (c) => {
    const { stateDelta } = await readBody(c, PatchSessionBodySchema);
    assertNoAppState(callerOf(c), stateDelta, "stateDelta");
    return c.json(await serviceOf(c).patchState(keyOf(c.var.app, c.req.param()), stateDelta));
  })
  // Stops the running turn (decision 028): its cancel event is stored and the session is free on return.
  .post("/apps/:app/users/:user/sessions/:session/cancel", async (c) => {
    const store = c.var.deps.sessionStore;
    if (!store.cancelTurn) throw new BatonError("not_supported", "This session store cannot stop a turn");
    const event = await store.cancelTurn(keyOf(c.var.app, c.req.param()));
    return c.json({ canceled: event !== null, event });
  })
  // A dropped `/run_sse` stream again (decision 028): what followed `Last-Event-ID`, then the live events.
  .get("/apps/:app/users/:user/sessions/:session/invocations/:invocation/stream", async (c) => {
    const store = c.var.deps.sessionStore;
    if (!store.followInvocation)
      throw new BatonError("not_supported", "This session store cannot replay a turn's stream");
    const { invocation } = c.req.param();
    if (invocation.length > MAX_INVOCATION_ID)
      throw new BatonError("invalid_request", `An invocation id has at most ${MAX_INVOCATION_ID} characters`);
    const after = c.req.header("Last-Event-ID") ?? c.req.query("after");
    const events = await store.followInvocation(keyOf(c.var.app, c.req.param()), invocation, after);
    if (!events) throw new BatonError("not_found", `Invocation not found: ${invocation}`);
    return sseResponse(c, events, { errorFrames: false });
  })
  .delete("/apps/:app/users/:user/sessions/:session", async (c) => {
    const key = keyOf(c.var.app, c.req.param());
    await serviceOf(c).delete(key);
    // Its files go with it (its user's `user:` ones stay): nothing else could reach them again.
    await c.var.deps.services.artifacts?.deleteSessionArtifacts?.(key);
    return c.json(null);
  });
