import { type Context, Hono } from "hono";
import { buildAgentCard, cardJson } from "../a2a/server/agent-card.js";
import { handleJsonRpc } from "../a2a/server/json-rpc.js";
import { BatonA2aRequestHandler } from "../a2a/server/request-handler.js";
import type { A2aServerDeps } from "../a2a/server/server-deps.js";
import { BatonError } from "../core/errors.js";
import { a2aContextUserId, reservedUserId } from "../core/reserved-users.js";
import { otlpTraceSink } from "../telemetry/otlp-export.js";
import { findApp } from "./app-lookup.js";
import { tokensOf } from "./auth.js";
import { assertService, callerOf } from "./caller.js";
import { BATON_VERSION } from "./meta.js";
import type { HonoEnv } from "./types.js";

/** The agent card of `/a2a/:app` (public: clients read it to learn how to authenticate). */
export const a2aCards = new Hono<HonoEnv>().get(
  "/a2a/:app/.well-known/:file{agent-card\\.json|agent\\.json}",
  (c) => {
    const card = cardJson(cardOf(c));
    return c.json(card, 200, { "Cache-Control": "public, max-age=300" });
  },
);

/**
 * `POST /a2a/:app`: A2A JSON-RPC (1.0 and 0.3) over the app's sessions; service tokens only, since A2A
 * contexts are not tied to the caller's user (docs/decisions/022).
 */
export const a2aRpc = new Hono<HonoEnv>().post("/a2a/:app", (c) => {
  assertService(callerOf(c), "A2A serving");
  return handleJsonRpc(c.req.raw, new BatonA2aRequestHandler(serverDeps(c)));
});

function cardOf(c: Context<HonoEnv>) {
  const app = findApp(c.var.deps.apps, c.req.param("app") ?? "");
  const url = `${new URL(c.req.url).origin}/a2a/${app.name}`;
  return buildAgentCard(app, { url, bearer: tokensOf(c.env.API_TOKENS).length > 0, version: BATON_VERSION });
}

function serverDeps(c: Context<HonoEnv>): A2aServerDeps {
  const deps = c.var.deps;
  const { taskStore } = deps;
  if (!taskStore)
    throw new BatonError("internal", "A2A needs a task store: give createAdkApi's deps a taskStore.");
  const { services } = deps;
  const waitUntil = waitUntilOf(c, services.log);
  const onTrace = otlpTraceSink(c.env, services, waitUntil);
  return {
    app: findApp(c.var.deps.apps, c.req.param("app") ?? ""),
    card: cardOf(c),
    sessionStore: deps.sessionStore,
    taskStore,
    services,
    // Baton's own callers' users are reserved: no end user's token can name them (decision 029).
    userIdFor: (contextId) =>
      deps.a2aUserId === undefined ? a2aContextUserId(contextId) : reservedUserId("a2a", deps.a2aUserId),
    waitUntil,
    ...(onTrace ? { onTrace } : {}),
  };
}

/** The Worker's `waitUntil`; outside a Worker (Node tests), the work just runs on, its failure logged. */
function waitUntilOf(c: Context<HonoEnv>, log: (message: string) => void): (work: Promise<unknown>) => void {
  const logged = (work: Promise<unknown>) =>
    work.catch((error: unknown) => log(`Background A2A work failed: ${String(error)}`));
  try {
    const ctx = c.executionCtx;
    return (work) => ctx.waitUntil(logged(work));
  } catch {
    return (work) => void logged(work);
  }
}
