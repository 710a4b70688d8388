import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

/**
 * Node only (scripts and tests): every `.yaml`/`.yml` file under `dir`, as the path → text map
 * `loadAgentConfig` takes, keyed by the path relative to `dir` with `/` separators. A Worker never reads
 * config from disk; it bundles the files at build time instead.
 * @example
 * const rootAgent = loadAgentConfig({ files: readAgentConfigDir("agents/helpdesk"), registry });
 */
export function readAgentConfigDir(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && /\.ya?ml$/.test(entry.name)) {
        files[relative(dir, path).split(sep).join("/")] = readFileSync(path, "utf8");
      }
    }
  };
  walk(dir);
  return files;
}
