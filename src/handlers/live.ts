import { type Context, Hono } from "hono";
import { BatonError } from "../core/errors.js";
import { ID_LIMITS, idProblem } from "../core/limits.js";
import type { SessionKey } from "../core/session.js";
import { liveOptionsOf } from "../live/live-request.js";
import { LIVE_HEADER, LIVE_URL, type LiveUpgrade } from "../live/live-sockets.js";
import type { SessionStoreEnv } from "../session/do-store.js";
import { sessionObjectName } from "../storage/object-names.js";
import { findApp } from "./app-lookup.js";
import { assertMayActAs, callerOf } from "./caller.js";
import { stringVars } from "./object-turn.js";
import type { HonoEnv } from "./types.js";

/** One required query parameter, within its id limit (core/limits.ts). */
function idParam(
  c: Context<HonoEnv>,
  name: string,
  limit: (typeof ID_LIMITS)[keyof typeof ID_LIMITS],
): string {
  const value = c.req.query(name);
  if (value === undefined || value === "")
    throw new BatonError("invalid_request", `The query needs ${name}.`);
  const problem = idProblem(limit, value);
  if (problem !== null) throw new BatonError("invalid_request", `Refused the query's ${name}: ${problem}.`);
  return value;
}

/**
 * `GET /run_live` (ADK's web server's live route, issue 46, decision 055): a WebSocket to a live call on an
 * existing session, with ADK's query (`app_name`, `user_id`, `session_id`, `modalities`, `proactive_audio`,
 * `enable_affective_dialog`, `enable_session_resumption`, `save_live_blob`). The checks `/run` makes come
 * first, as HTTP answers (401/403/404/400, 426 without an upgrade); the socket itself is held by the
 * session's Durable Object, which runs the call (`LiveSockets`).
 */
export const live = new Hono<HonoEnv>().get("/run_live", async (c) => {
  const appName = idParam(c, "app_name", ID_LIMITS.appName);
  const userId = idParam(c, "user_id", ID_LIMITS.userId);
  const sessionId = idParam(c, "session_id", ID_LIMITS.sessionId);
  assertMayActAs(callerOf(c), appName, userId);
  const { deps } = c.var;
  findApp(deps.apps, appName);
  const options = liveOptionsOf(new URL(c.req.url).searchParams);
  if (typeof options === "string") throw new BatonError("invalid_request", options);
  const key: SessionKey = { appName, userId, sessionId };
  if ((await deps.sessionStore.getSession(key, { numRecentEvents: 0 })) === null)
    throw new BatonError("session_not_found", `Session ${sessionId} not found.`);
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket")
    return c.json(
      { detail: "/run_live is a WebSocket: send Upgrade: websocket.", code: "upgrade_required" },
      426,
    );
  if (deps.turnHost === undefined)
    throw new BatonError(
      "not_supported",
      'Live calls run in the session\'s Durable Object: this Worker runs its turns in the request (runTurnsIn: "request").',
    );
  // SAFETY: `turnHost` is set only by `createWorker`, whose env has the session bindings.
  const env = c.env as SessionStoreEnv & Record<string, unknown>;
  const upgrade: LiveUpgrade = {
    host: deps.turnHost,
    key,
    options,
    invocationId: `e-${crypto.randomUUID()}`,
    vars: stringVars(env),
  };
  const stub = env.SESSIONS.getByName(sessionObjectName(key));
  return stub.fetch(LIVE_URL, { headers: { upgrade: "websocket", [LIVE_HEADER]: JSON.stringify(upgrade) } });
});
