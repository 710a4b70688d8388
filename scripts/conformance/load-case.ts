import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AgentConfigRegistry } from "../../src/config/agent-config-registry.js";
import { readAgentConfigDir } from "../../src/config/read-config-dir.js";
import { replayApp } from "../../src/replay/replay-app.js";
import { type CaseFiles, readCaseFiles } from "./case-files.js";
import type { CaseRef } from "./data-dir.js";

/** A case ready to play: its files and the YAML of its app (`agents/<spec.agent>/`). */
export interface LoadedCase {
  id: string;
  dir: string;
  files: CaseFiles;
  app: { name: string; files: Record<string, string> };
}

/** A case that cannot be played, and why (naming the file, and the field or name, at fault). */
export interface UnloadableCase {
  id: string;
  problem: string;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Reads a case of `root` (`tests/<category>/<name>/` and `agents/<app>/`) and builds its app once in Node
 * with `registry`, as the replay Worker will, so a file that does not match its format, a missing agent
 * folder or an unknown tool or callback name is reported before any server starts.
 */
export function loadCase(
  root: string,
  ref: CaseRef,
  registry: AgentConfigRegistry,
): LoadedCase | UnloadableCase {
  const id = `${ref.category}/${ref.name}`;
  let files: CaseFiles;
  try {
    files = readCaseFiles(ref.dir);
  } catch (error) {
    return { id, problem: messageOf(error) };
  }
  const name = files.spec.agent;
  const agentsDir = join(root, "agents", name);
  if (!existsSync(join(agentsDir, "root_agent.yaml")))
    return {
      id,
      problem: `spec.yaml names agent "${name}", but ${agentsDir}/root_agent.yaml does not exist`,
    };
  const appFiles = readAgentConfigDir(agentsDir);
  try {
    replayApp({ name, files: appFiles, registry });
  } catch (error) {
    // The loader names the file inside the app folder (and the field and name); say which folder too.
    return { id, problem: `agents/${name}: ${messageOf(error)}` };
  }
  return { id, dir: ref.dir, files, app: { name, files: appFiles } };
}
