import type { App } from "../runner/app.js";
import { Runner } from "../runner/runner.js";
import type { ApiDeps } from "./types.js";

/**
 * The runner of `app`'s turns with `deps`, where it runs (a Worker's request, a session's object): one that
 * exports each turn's trace (`deps.traces`, e.g. over OTLP) when `env` configures it (the export kept alive by `keepAlive`),
 * else the one plain runner per deps and app, which keeps nothing of a turn.
 */
export function turnRunner(
  deps: ApiDeps,
  app: App,
  env: Record<string, unknown>,
  keepAlive: (work: Promise<void>) => void,
): Runner {
  const onTrace = deps.traces?.(env, deps.services, keepAlive);
  return onTrace
    ? new Runner({ app, sessionStore: deps.sessionStore, services: deps.services, onTrace })
    : plainRunner(deps, app);
}

/** Runners with no trace sink, per deps (one per env in a Worker) and app. */
const plainRunners = new WeakMap<ApiDeps, WeakMap<App, Runner>>();

function plainRunner(deps: ApiDeps, app: App): Runner {
  const byApp = plainRunners.get(deps) ?? new WeakMap<App, Runner>();
  plainRunners.set(deps, byApp);
  const runner =
    byApp.get(app) ?? new Runner({ app, sessionStore: deps.sessionStore, services: deps.services });
  byApp.set(app, runner);
  return runner;
}
