import type { AgentConfigRegistry } from "../config/agent-config-registry.js";
import { loadAgentConfig } from "../config/load-agent-config.js";
import { type App, defineApp } from "../runner/app.js";
import { replayOnlyModel } from "./replay-only-model.js";

/** One conformance app: `agents/<name>/`'s YAML files (path → text) and the names they use. */
export interface ReplayAppSource {
  /** The app name: the `agents/<name>/` folder, which a case's `spec.yaml` names as `agent`. */
  name: string;
  /** Every YAML file of the folder, keyed by its path inside it (`root_agent.yaml`, …). */
  files: Readonly<Record<string, string>>;
  /** The TypeScript tools and callbacks the YAML names by their Python names. */
  registry?: AgentConfigRegistry;
}

/**
 * An app built from ADK Agent Config YAML for replay: every YAML `model` becomes a stand-in that carries
 * the model name (the request check compares it) and fails if it is ever called, so a replayed case
 * never reaches a provider. Serve it with `createWorker` and the var `ADK_REPLAY=true`; a load problem
 * throws an `AgentConfigError` naming the file, the field and what is accepted.
 */
export function replayApp(source: ReplayAppSource): App {
  const rootAgent = loadAgentConfig({
    files: source.files,
    ...(source.registry === undefined ? {} : { registry: source.registry }),
    model: replayOnlyModel,
  });
  return defineApp({ name: source.name, rootAgent });
}
