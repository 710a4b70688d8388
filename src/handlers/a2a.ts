import { type Context, Hono } from "hono";
import { buildAgentCard, cardJson } from "../a2a/server/agent-card.js";
import { handleJsonRpc } from "../a2a/server/json-rpc.js";
import { BatonA2aRequestHandler } from "../a2a/server/request-handler.js";
import { handleRest, type RestCall } from "../a2a/server/rest.js";
import type { A2aServerDeps } from "../a2a/server/server-deps.js";
import { BatonError } from "../core/errors.js";
import { a2aContextUserId, reservedUserKey } from "../core/reserved-users.js";
import type { App } from "../runner/app.js";
import { findApp } from "./app-lookup.js";
import { tokensOf } from "./auth.js";
import { assertMayActAs, type Caller, callerOf } from "./caller.js";
import { BATON_VERSION } from "./meta.js";
import type { ApiDeps, HonoEnv } from "./types.js";
import { waitUntilOf } from "./wait-until.js";

const CARD_FILE = ":file{agent-card\\.json|agent\\.json}";

/**
 * Agent cards (public: clients read them to learn how to authenticate): each app's under `/a2a/:app`, and
 * the default app's at the host's root, where generic clients look (A2A 1.0 §8.2).
 */
export const a2aCards = new Hono<HonoEnv>()
  .get(`/a2a/:app/.well-known/${CARD_FILE}`, (c) =>
    servedCard(c, findApp(c.var.deps.apps, c.req.param("app"))),
  )
  .get(`/.well-known/${CARD_FILE}`, (c) => servedCard(c, defaultApp(c.var.deps)));

function servedCard(c: Context<HonoEnv>, app: App) {
  const card = cardJson(cardOf(c, app));
  return c.json(card, 200, { "Cache-Control": "public, max-age=300" });
}

/** The app whose card is at the root: the configured one, else the only app; none among several. */
function defaultApp(deps: ApiDeps): App {
  if (deps.a2aDefaultApp !== undefined) return findApp(deps.apps, deps.a2aDefaultApp);
  const [only, ...others] = deps.apps.values();
  if (only && others.length === 0) return only;
  throw new BatonError(
    "not_found",
    "No default A2A app: this Worker serves several apps, so each card is at /a2a/<app>/.well-known/agent-card.json (createWorker's a2a.defaultApp names one for the root).",
  );
}

/**
 * `POST /a2a/:app`: A2A JSON-RPC (1.0 and 0.3) over the app's sessions. A service token's contexts belong
 * to A2A's own users; an end user's are their own sessions (see `serverDeps`).
 */
export const a2aRpc = new Hono<HonoEnv>()
  .post("/a2a/:app", (c) => rpc(c, findApp(c.var.deps.apps, c.req.param("app"))))
  // The default app at the host's root too: clients handed only the host post their calls there.
  .post("/", (c) => rpc(c, defaultApp(c.var.deps)));

function rpc(c: Context<HonoEnv>, app: App) {
  return handleJsonRpc(c.req.raw, new BatonA2aRequestHandler(serverDeps(c, app)));
}

const PUSH_CONFIGS = "pushNotificationConfigs";

/**
 * A2A 1.0's HTTP+JSON binding (§11) under `/a2a/:app`, behind the same request handler as JSON-RPC. Task
 * ids hold a `:`, so `…/tasks/{id}:cancel` and `…:subscribe` are told apart by their ending.
 */
export const a2aRest = new Hono<HonoEnv>()
  .post("/a2a/:app/:op{message:send}", (c) => rest(c, { op: "send" }))
  .post("/a2a/:app/:op{message:stream}", (c) => rest(c, { op: "stream" }))
  .get("/a2a/:app/tasks", (c) => rest(c, { op: "list" }))
  .get("/a2a/:app/extendedAgentCard", (c) => rest(c, { op: "extendedCard" }))
  .post(`/a2a/:app/tasks/:ref{[^/]+}/${PUSH_CONFIGS}`, (c) =>
    rest(c, { op: "pushCreate", id: c.req.param("ref") }),
  )
  .get(`/a2a/:app/tasks/:ref{[^/]+}/${PUSH_CONFIGS}`, (c) =>
    rest(c, { op: "pushList", id: c.req.param("ref") }),
  )
  .on(["GET", "DELETE"], `/a2a/:app/tasks/:ref{[^/]+}/${PUSH_CONFIGS}/:config{[^/]+}`, (c) =>
    rest(c, {
      op: c.req.method === "GET" ? "pushGet" : "pushDelete",
      id: c.req.param("ref"),
      configId: c.req.param("config"),
    }),
  )
  .on(["GET", "POST"], "/a2a/:app/tasks/:ref{[^/]+}", (c) =>
    rest(c, taskCall(c.req.method, c.req.param("ref"))),
  );

const SUBSCRIBE = ":subscribe";
const CANCEL = ":cancel";

/** `GET …/tasks/{id}`, `GET|POST …/tasks/{id}:subscribe`, `POST …/tasks/{id}:cancel`; other POSTs 404. */
function taskCall(method: string, ref: string): RestCall {
  if (ref.endsWith(SUBSCRIBE)) return { op: "subscribe", id: ref.slice(0, -SUBSCRIBE.length) };
  if (method === "POST" && ref.endsWith(CANCEL)) return { op: "cancel", id: ref.slice(0, -CANCEL.length) };
  if (method === "GET") return { op: "get", id: ref };
  throw new BatonError("not_found", `No A2A operation at POST …/tasks/${ref}.`);
}

function rest(c: Context<HonoEnv>, call: RestCall) {
  const app = findApp(c.var.deps.apps, c.req.param("app") ?? "");
  return handleRest(call, c.req.raw, new BatonA2aRequestHandler(serverDeps(c, app)));
}

function cardOf(c: Context<HonoEnv>, app: App) {
  const url = `${new URL(c.req.url).origin}/a2a/${app.name}`;
  return buildAgentCard(app, {
    url,
    bearer: tokensOf(c.env.API_TOKENS).length > 0,
    pushNotifications: c.var.deps.a2aPush !== undefined,
    version: BATON_VERSION,
  });
}

/**
 * Whose sessions an A2A caller's contexts are. A service token's: each context's own reserved user (or
 * the configured one, decision 029). An end user's (decision 022): their own, so every context id they
 * send names a session of theirs, a task of anyone else's context is not found, and `ListTasks` lists
 * their tasks alone.
 */
function contextOwner(caller: Caller, app: App, deps: HonoEnv["Variables"]["deps"]) {
  if (caller.kind === "end-user") {
    assertMayActAs(caller, app.name, caller.subject);
    return { userIdFor: () => caller.subject, listUserId: caller.subject };
  }
  return {
    // Baton's own callers' users are reserved: no end user's token can name them (decision 029).
    userIdFor: (contextId: string) =>
      deps.a2aUserId === undefined
        ? a2aContextUserId(contextId)
        : reservedUserKey("a2a", deps.a2aUserId, "createWorker's a2a.userId"),
  };
}

function serverDeps(c: Context<HonoEnv>, app: App): A2aServerDeps {
  const deps = c.var.deps;
  const owner = contextOwner(callerOf(c), app, deps);
  const { taskStore } = deps;
  if (!taskStore)
    throw new BatonError("internal", "A2A needs a task store: give createAdkApi's deps a taskStore.");
  const { services } = deps;
  const waitUntil = backgroundOf(c, services.log);
  const onTrace = deps.traces?.(c.env, services, waitUntil);
  return {
    app,
    card: cardOf(c, app),
    sessionStore: deps.sessionStore,
    taskStore,
    services,
    ...owner,
    waitUntil,
    ...(deps.a2aPush ? { push: deps.a2aPush } : {}),
    ...(onTrace ? { onTrace } : {}),
  };
}

/**
 * The A2A request handler over `app`'s tasks as one Baton user, whatever the context: MCP's tasks of turns
 * (decision 057) are A2A tasks of that user's sessions, in the same store and id space.
 */
export function a2aHandlerAs(c: Context<HonoEnv>, app: App, userId: string): BatonA2aRequestHandler {
  return new BatonA2aRequestHandler({
    ...serverDeps(c, app),
    userIdFor: () => userId,
    listUserId: userId,
  });
}

/** The Worker's `waitUntil`; outside a Worker (Node tests), the work just runs on, its failure logged. */
function backgroundOf(c: Context<HonoEnv>, log: (message: string) => void): (work: Promise<unknown>) => void {
  const logged = (work: Promise<unknown>) =>
    work.catch((error: unknown) => log(`Background A2A work failed: ${String(error)}`));
  const keep = waitUntilOf(c);
  return (work) => (keep ? keep(logged(work)) : void logged(work));
}
