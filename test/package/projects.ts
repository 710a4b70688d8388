/**
 * Fresh projects that install the packed tarball as users do: a project with the core entry only
 * (`@baton-agents/core` and `zod`), one per set of optional peers an entry names (package.json
 * `entryPeers`), and one with every peer for the type checks. Each is a folder of its own under `work`.
 */
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";
import { run } from "./processes.js";

export interface RepoPackage {
  repository: { url: string };
  exports: Record<string, string | Record<string, string>>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  entryPeers: Record<string, string[] | string>;
}

/** The entries that need Cloudflare's runtime (`cloudflare:*` modules): bundled, not imported in Node. */
export const workersOnly = (entry: string): boolean => entry.startsWith("./cloudflare");

/** Every exports entry, with the optional peers it names. */
export function entriesOf(pkg: RepoPackage): { entry: string; peers: string[] }[] {
  return Object.keys(pkg.exports)
    .filter((entry) => entry !== "./package.json")
    .map((entry) => {
      const peers = pkg.entryPeers[entry];
      return { entry, peers: Array.isArray(peers) ? [...peers].sort() : [] };
    });
}

/** The entries grouped by the peers they name: one project installs each group's peers and nothing else. */
export function peerGroups(pkg: RepoPackage): { peers: string[]; entries: string[] }[] {
  const groups = new Map<string, { peers: string[]; entries: string[] }>();
  for (const { entry, peers } of entriesOf(pkg)) {
    const key = peers.join(" ");
    const group = groups.get(key) ?? { peers, entries: [] };
    group.entries.push(entry);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** A version spec for a peer: the range package.json gives it. */
const rangeOf = (pkg: RepoPackage, name: string): string => {
  const range = pkg.peerDependencies[name];
  if (range === undefined) throw new Error(`${name} is not a peer dependency of @baton-agents/core.`);
  return range;
};

/** Writes a project's package.json: the tarball, zod, `peers` at their ranges, and `devDependencies`. */
export async function writeProject(
  dir: string,
  tarball: string,
  pkg: RepoPackage,
  peers: readonly string[],
  devDependencies: Record<string, string> = {},
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const dependencies: Record<string, string> = {
    "@baton-agents/core": `file:${tarball}`,
    zod: rangeOf(pkg, "zod"),
  };
  for (const peer of peers) dependencies[peer] = rangeOf(pkg, peer);
  const manifest = { name: "consumer", private: true, type: "module", dependencies, devDependencies };
  await writeFile(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
}

export interface Installed {
  code: number;
  stderr: string;
  /** What npm said it added ("added N packages"). */
  added: number | undefined;
}

/** `npm install` as a user runs it, from npm's cache where it can. */
export async function install(dir: string): Promise<Installed> {
  const ran = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], dir);
  const added = /added (\d+) packages?/.exec(ran.stdout + ran.stderr)?.[1];
  return { code: ran.code, stderr: ran.stderr, added: added === undefined ? undefined : Number(added) };
}

/** The packages in a project's node_modules, by name (scoped ones as `@scope/name`). */
export async function installedPackages(dir: string): Promise<string[]> {
  const root = join(dir, "node_modules");
  const names: string[] = [];
  for (const name of await readdir(root)) {
    if (name.startsWith(".")) continue;
    if (name.startsWith("@"))
      for (const inner of await readdir(join(root, name))) names.push(`${name}/${inner}`);
    else names.push(name);
  }
  return names.sort();
}

/**
 * The packages something installed in `dir` depends on (its `dependencies`), whoever asked for them: an
 * optional peer that is also a plain dependency of another package (the AI SDK's `@opentelemetry/api`)
 * is installed whatever Baton declares.
 */
export async function dependedOn(dir: string, except: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (const name of await installedPackages(dir)) {
    if (name === except) continue;
    const manifest = JSON.parse(await readFile(join(dir, "node_modules", name, "package.json"), "utf8"));
    for (const dependency of Object.keys(manifest.dependencies ?? {})) names.add(dependency);
  }
  return names;
}

/** The bytes of every file under `dir` (what `du --apparent-size` counts), and the files. */
export async function sizeOf(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = await sizeOf(path);
      bytes += inner.bytes;
      files += inner.files;
    } else if (entry.isFile()) {
      bytes += (await stat(path)).size;
      files += 1;
    }
  }
  return { bytes, files };
}

/**
 * Bundles `import * as entry from "@baton-agents/core/…"` from `dir`, as wrangler would for a Worker
 * (workerd conditions, `cloudflare:*` and Node's modules provided by the runtime): every import the entry
 * makes must resolve in the project. Returns esbuild's errors, empty when it bundled.
 */
export async function bundleErrors(dir: string, entry: string): Promise<string[]> {
  const specifier = `@baton-agents/core${entry.slice(1)}`;
  try {
    await build({
      stdin: { contents: `export * from ${JSON.stringify(specifier)};`, resolveDir: dir, loader: "ts" },
      absWorkingDir: dir,
      bundle: true,
      write: false,
      format: "esm",
      platform: "neutral",
      conditions: ["workerd", "worker", "browser"],
      mainFields: ["module", "main"],
      external: ["cloudflare:*", "node:*", ...builtinModules],
      logLevel: "silent",
    });
    return [];
  } catch (error) {
    const errors = error instanceof Error && "errors" in error ? error.errors : undefined;
    return Array.isArray(errors) ? errors.map((e: { text: string }) => e.text) : [String(error)];
  }
}
