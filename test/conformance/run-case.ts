import { join } from "node:path";
import type { CaseFiles } from "../../scripts/conformance/case-files.js";
import { CONFORMANCE_DIR } from "../../scripts/conformance/data-dir.js";
import { playCase, type Send } from "../../scripts/conformance/play-case.js";
import { conformanceRegistry } from "../../scripts/conformance/registry.js";
import { readAgentConfigDir } from "../../src/config/read-config-dir.js";
import { createAdkApi } from "../../src/handlers/api.js";
import { replayApp } from "../../src/replay/replay-app.js";
import { adkReplayPlugin } from "../../src/replay/replay-plugin.js";
import { defaultServices } from "../../src/services/defaults.js";
import { InMemorySessionStore } from "../../src/session/in-memory-store.js";

/** What one case run found; a passing case has no problems. */
export interface CaseReport {
  problems: string[];
}

/**
 * Plays one case in Node, in process: the app built from its YAML as the replay Worker builds it, served
 * by `createAdkApi` with ADK's replay plugin and an in-memory store, and played by the same client
 * `npm run conformance` uses over HTTP.
 */
export async function runCase(
  dir: string,
  files: CaseFiles,
  conformanceDir = CONFORMANCE_DIR,
): Promise<CaseReport> {
  const name = files.spec.agent;
  const app = replayApp({
    name,
    files: readAgentConfigDir(join(conformanceDir, "agents", name)),
    registry: conformanceRegistry,
  });
  const store = new InMemorySessionStore();
  const services = defaultServices({
    log: () => undefined,
    sleep: () => Promise.reject(new Error("replay never waits: a retry was attempted")),
  });
  const apps = new Map([[name, { ...app, plugins: [adkReplayPlugin] }]]);
  const api = createAdkApi(() => ({ apps, sessionStore: store, services }));
  const send: Send = (path, method = "GET", json) =>
    Promise.resolve(
      api.request(
        path,
        {
          method,
          ...(json === undefined
            ? {}
            : { body: JSON.stringify(json), headers: { "content-type": "application/json" } }),
        },
        { ALLOW_UNAUTHENTICATED: "true" },
      ),
    );
  return { problems: await playCase(dir, files, send) };
}
