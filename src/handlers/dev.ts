import { type Context, Hono } from "hono";
import { BatonError } from "../core/errors.js";
import { EVENT_PAGE_LIMITS } from "../core/session-pages.js";
import { agentGraphDot } from "../devtools/agent-graph.js";
import { appInfo } from "../devtools/agent-info.js";
import { eventHighlights } from "../devtools/event-highlights.js";
import { eventTrace, sessionTrace } from "../devtools/trace-view.js";
import { findApp } from "./app-lookup.js";
import { assertMayActAs, callerOf, mayUseApp } from "./caller.js";
import { ARTIFACTS_PATH } from "./path-limits.js";
import type { HonoEnv } from "./types.js";

/** ADK dev UI features Baton does not have; each answers 501 with a sentence the UI can show. */
const UNSUPPORTED: readonly [path: string, feature: string][] = [
  ["/dev/apps/:app/builder/*", "The agent builder"],
  ["/dev/apps/:app/builder", "The agent builder"],
  ["/dev/apps/:app/tests/*", "Agent tests"],
  ["/dev/apps/:app/tests", "Agent tests"],
];

/** ADK's eval routes, answered by `evalRoutes()` when a Worker serves them (decision 034); else 501. */
const EVAL_PATHS: readonly string[] = ["eval_sets", "eval-sets", "eval_results", "eval-results"].flatMap(
  (name) =>
    ["", "/dev"].flatMap((prefix) => [`${prefix}/apps/:app/${name}`, `${prefix}/apps/:app/${name}/*`]),
);

/**
 * What ADK's dev UI calls besides chatting: the app's agent tree (`build_graph`), the tree as DOT text
 * (`build_graph_image`, rendered by the UI), the tree with one event's path lit up, and clear refusals
 * for features Baton does not have.
 */
export const dev = new Hono<HonoEnv>()
  .get("/dev/apps/:app/build_graph", (c) => {
    const app = findApp(c.var.deps.apps, c.req.param("app"));
    return c.json(appInfo(app.name, app.rootAgent));
  })
  .get("/dev/apps/:app/build_graph_image", (c) => {
    const app = findApp(c.var.deps.apps, c.req.param("app"));
    const path = c.req.query("node") ?? "";
    const names = path.split("/").filter((part) => part !== "" && part !== app.rootAgent.name);
    let target = app.rootAgent;
    for (const name of names) {
      const next = target.subAgents.find((sub) => sub.name === name);
      if (!next) throw new BatonError("not_found", `Node not found: ${path}`);
      target = next;
    }
    const dotSrc = agentGraphDot(target, { darkMode: c.req.query("dark_mode") === "true" });
    return c.json({ [path]: { dotSrc }, dotSrc });
  });

for (const prefix of ["", "/dev"]) {
  dev.get(`${prefix}/apps/:app/users/:user/sessions/:session/events/:event/graph`, async (c) => {
    const { app, user, session: sessionId, event: eventId } = c.req.param();
    const { rootAgent } = findApp(c.var.deps.apps, app);
    // The newest events a read returns (decision 046): an older event of a longer session is not looked up.
    const window = { numRecentEvents: EVENT_PAGE_LIMITS.maxPerRead };
    const session = await c.var.deps.sessionStore.getSession(
      { appName: app, userId: user, sessionId },
      window,
    );
    if (!session) throw new BatonError("session_not_found", `Session not found: ${sessionId}`);
    const event = session.events.find((e) => e.id === eventId);
    if (!event) throw new BatonError("not_found", `Event not found among the newest events: ${eventId}`);
    return c.json({ dotSrc: agentGraphDot(rootAgent, { highlights: eventHighlights(event) }) });
  });
}

/**
 * The stored turn traces of a session the dev UI names by id alone: of `?user_id=` when given, else of
 * every user of the app who has a session with that id (ADK keys traces by session id only). An end
 * user's token reads only its own user's traces, in the apps it covers (decision 022).
 */
async function tracesOf(c: Context<HonoEnv>, appNames: readonly string[], sessionId: string) {
  const store = c.var.deps.sessionStore;
  const caller = callerOf(c);
  const named = c.req.query("user_id");
  const owners = async (appName: string) => {
    if (caller.kind === "end-user") {
      assertMayActAs(caller, appName, named ?? caller.subject);
      return [caller.subject];
    }
    return named ? [named] : ((await store.findSessionOwners?.(appName, sessionId)) ?? []);
  };
  const keys = await Promise.all(
    appNames.map(async (appName) =>
      (await owners(appName)).map((userId) => ({ appName, userId, sessionId })),
    ),
  );
  const traces = await Promise.all(keys.flat().map(async (key) => (await store.listTraces?.(key)) ?? []));
  return traces.flat();
}

const appsOf = (c: Context<HonoEnv>): string[] => {
  const name = c.req.param("app");
  if (name !== undefined) return [findApp(c.var.deps.apps, name).name];
  const caller = callerOf(c);
  return [...c.var.deps.apps.keys()].filter((app) => mayUseApp(caller, app));
};

for (const prefix of ["", "/dev/apps/:app"]) {
  dev.get(`${prefix}/debug/trace/session/:session`, async (c) =>
    c.json(sessionTrace(await tracesOf(c, appsOf(c), c.req.param("session")))),
  );
  dev.get(`${prefix}/debug/trace/:event`, async (c) => {
    const sessionId = c.req.query("session_id");
    const found = sessionId && eventTrace(await tracesOf(c, appsOf(c), sessionId), c.req.param("event"));
    if (found) return c.json(found);
    const hint = sessionId ? "" : " Baton keeps traces with their session: add ?session_id=.";
    throw new BatonError("not_found", `Trace not found.${hint}`);
  });
}

/**
 * 501 saying what to pass, on the routes of what this Worker was built without: evaluations (`evalRoutes()`)
 * or artifacts (`r2Artifacts()`). A Worker that has them answers their routes itself, and an unknown path or
 * method among them 404 or 405 like any other (decision 048).
 */
export function notEnabled(served: { evals: boolean; artifacts: boolean }): Hono<HonoEnv> {
  const routes = new Hono<HonoEnv>();
  if (!served.evals)
    for (const path of [...EVAL_PATHS, "/apps/:app/metrics-info", "/dev/apps/:app/metrics-info"]) {
      routes.all(path, () => {
        throw new BatonError(
          "not_supported",
          'Evaluations are not enabled in this Worker: pass `evals: evalRoutes()` (from "@baton-agents/core/cloudflare/evals") to createWorker.',
        );
      });
    }
  if (!served.artifacts)
    for (const path of [ARTIFACTS_PATH, `${ARTIFACTS_PATH}/*`]) {
      routes.all(path, () => {
        throw new BatonError(
          "not_supported",
          'Artifacts are not supported by this Worker: pass `artifacts: r2Artifacts()` (from "@baton-agents/core/cloudflare/artifacts") to createWorker.',
        );
      });
    }
  return routes;
}

for (const [path, feature] of UNSUPPORTED) {
  dev.all(path, () => {
    throw new BatonError("not_supported", `${feature}: not supported by Baton (an ADK dev UI feature).`);
  });
}
