import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse } from "yaml";
import type { BeforeModelCallback, BeforeToolCallback } from "../../src/agents/callbacks.js";
import { LlmAgent } from "../../src/agents/llm-agent.js";
import { isRecord } from "../../src/replay/genai-keys.js";
import { replayOnlyModel } from "./replay-only-model.js";

/** The callbacks every loaded agent gets: the replay harness's hooks. */
export interface LoaderCallbacks {
  beforeModel: BeforeModelCallback;
  beforeTool: BeforeToolCallback;
}

/** The `AgentConfig` keys this loader maps to Baton. Anything else fails the case loudly. */
const SUPPORTED = new Set([
  "agent_class",
  "name",
  "model",
  "description",
  "instruction",
  "sub_agents",
  "disallow_transfer_to_parent",
  "disallow_transfer_to_peers",
]);

function field<T>(config: Record<string, unknown>, key: string, type: string, file: string): T | undefined {
  const value = config[key];
  if (value === undefined) return undefined;
  if (typeof value !== type)
    throw new Error(`${file}: "${key}" must be a ${type}, got ${JSON.stringify(value)}`);
  // SAFETY: `typeof value === type` was checked against the `T` the caller names by `type`.
  return value as T;
}

/** The `config_path` of each `sub_agents` entry; other reference forms (`code:`) are not supported. */
function subAgentPaths(config: Record<string, unknown>, file: string): string[] {
  const list = config.sub_agents ?? [];
  if (!Array.isArray(list)) throw new Error(`${file}: "sub_agents" must be a list`);
  return list.map((entry, i) => {
    const keys = isRecord(entry) ? Object.keys(entry) : [];
    const path = isRecord(entry) ? entry.config_path : undefined;
    if (typeof path !== "string" || keys.length !== 1) {
      throw new Error(
        `${file}: sub_agents[${i}] must be {config_path: <file>}; got ${JSON.stringify(entry)}`,
      );
    }
    return path;
  });
}

function loadAgent(file: string, callbacks: LoaderCallbacks, seen: readonly string[]): LlmAgent {
  if (seen.includes(file)) throw new Error(`Agent YAML cycle: ${[...seen, file].join(" → ")}`);
  const config: unknown = parse(readFileSync(file, "utf8"));
  if (!isRecord(config)) throw new Error(`${file}: an agent config must be a mapping`);
  const unsupported = Object.keys(config).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0) {
    throw new Error(`${file}: unsupported agent config key(s) ${unsupported.join(", ")}; extend the loader`);
  }
  const agentClass = field<string>(config, "agent_class", "string", file) ?? "LlmAgent";
  if (agentClass !== "LlmAgent") throw new Error(`${file}: agent_class ${agentClass} is not supported yet`);
  const name = field<string>(config, "name", "string", file);
  if (name === undefined) throw new Error(`${file}: "name" is required`);
  const model = field<string>(config, "model", "string", file);
  const description = field<string>(config, "description", "string", file);
  const instruction = field<string>(config, "instruction", "string", file);
  const toParent = field<boolean>(config, "disallow_transfer_to_parent", "boolean", file);
  const toPeers = field<boolean>(config, "disallow_transfer_to_peers", "boolean", file);
  // `config_path` is relative to the file that references it.
  const subAgents = subAgentPaths(config, file).map((path) =>
    loadAgent(resolve(dirname(file), path), callbacks, [...seen, file]),
  );
  return new LlmAgent({
    name,
    ...(model === undefined ? {} : { model: replayOnlyModel(model) }),
    ...(description === undefined ? {} : { description }),
    ...(instruction === undefined ? {} : { instruction }),
    ...(toParent === undefined ? {} : { disallowTransferToParent: toParent }),
    ...(toPeers === undefined ? {} : { disallowTransferToPeers: toPeers }),
    subAgents,
    beforeModel: callbacks.beforeModel,
    beforeTool: callbacks.beforeTool,
  });
}

/**
 * Builds the `LlmAgent` tree of `agents/<app>/root_agent.yaml`. The YAML `model` becomes a stand-in that
 * fails if called (replay answers every call); `instruction` is kept verbatim, trailing newline included.
 */
export function loadAgentTree(conformanceDir: string, app: string, callbacks: LoaderCallbacks): LlmAgent {
  return loadAgent(join(conformanceDir, "agents", app, "root_agent.yaml"), callbacks, []);
}
