/**
 * The app an eval runs: a module file of the user's (TypeScript through tsx when the project has it), its
 * exported apps (`defineApp`) and the model providers it exports as `models`, and the settings models read.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseEnv } from "node:util";
import type { Env } from "../core/ports.js";
import type { ModelProvider } from "../models/model-provider.js";
import type { App } from "../runner/app.js";

/** A mistake in the command line or its files: reported as one sentence, exit code 2. */
export class UsageError extends Error {}

/** What one module file exports that an eval can use. */
export interface LoadedModule {
  apps: App[];
  /** Its `models` export: the providers `provider:model` strings resolve through (`demo:` is built in). */
  models: ModelProvider[];
}

const isApp = (value: unknown): value is App =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as App).name === "string" &&
  typeof (value as App).rootAgent === "object" &&
  (value as App).agents instanceof Map;

const isProvider = (value: unknown): value is ModelProvider =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ModelProvider).name === "string" &&
  typeof (value as ModelProvider).model === "function";

const TYPESCRIPT = /\.[cm]?tsx?$/;
let tsxRegistered = false;

/** The ES module file of tsx's `./esm/api` export, from its package.json (its CommonJS twin cannot register). */
function tsxApi(cwd: string): string | undefined {
  let manifest: string;
  try {
    manifest = createRequire(join(cwd, "package.json")).resolve("tsx/package.json");
  } catch {
    return undefined;
  }
  // SAFETY: tsx's own package.json; only the shape of its `./esm/api` export is read, and checked.
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as {
    exports?: Record<string, { import?: string | { default?: string } }>;
  };
  const target = pkg.exports?.["./esm/api"]?.import;
  const file = typeof target === "string" ? target : target?.default;
  return file === undefined ? undefined : join(dirname(manifest), file);
}

/**
 * Lets `import()` read TypeScript: tsx's loader when the project has tsx, else Node's own type stripping
 * where it has one. Without either, a sentence saying what to install.
 */
async function readTypeScript(cwd: string, file: string): Promise<void> {
  if (tsxRegistered) return;
  const api = tsxApi(cwd);
  if (api === undefined) {
    // Node 22.6+ (`process.features.typescript`, which Node 20's types do not name yet).
    if (Reflect.get(process.features, "typescript")) return;
    throw new UsageError(`${file} is TypeScript: install tsx (npm install --save-dev tsx) to run it.`);
  }
  // SAFETY: tsx's documented ESM API (`tsx/esm/api`): `register()` adds its loader to this process.
  const tsx = (await import(pathToFileURL(api).href)) as { register: () => unknown };
  tsx.register();
  tsxRegistered = true;
}

/** Imports `file` (relative to `cwd`) and keeps its apps and its `models`. */
export async function loadModule(
  file: string,
  cwd: string,
  typescript: "register" | "ambient",
): Promise<LoadedModule> {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new UsageError(`No such module: ${file}`);
  if (typescript === "register" && TYPESCRIPT.test(path)) await readTypeScript(cwd, file);
  const exported: Record<string, unknown> = await import(pathToFileURL(path).href);
  const apps = [...new Set(Object.values(exported).filter(isApp))];
  const models = Array.isArray(exported.models) ? exported.models.filter(isProvider) : [];
  return { apps, models };
}

/** The app `spec` names: a module file's one app, or the app of that name among `module`'s exports. */
export async function loadApp(
  spec: string,
  module: string,
  cwd: string,
  typescript: "register" | "ambient",
): Promise<{ app: App; models: ModelProvider[] }> {
  if (/\.[cm]?[jt]sx?$/.test(spec)) {
    const { apps, models } = await loadModule(spec, cwd, typescript);
    const [app] = apps;
    if (apps.length !== 1 || !app)
      throw new UsageError(
        `${spec} exports ${apps.length} apps; export one, or name it with --module ${spec}.`,
      );
    return { app, models };
  }
  const { apps, models } = await loadModule(module, cwd, typescript);
  const app = apps.find((a) => a.name === spec);
  if (!app)
    throw new UsageError(`No app "${spec}" in ${module}; it exports: ${apps.map((a) => a.name).join(", ")}.`);
  return { app, models };
}

/**
 * The settings models and tools read (`OPENAI_API_KEY`…): the environment, over `.dev.vars` in `cwd` when
 * there is one (the file `wrangler dev` reads the same keys from).
 */
export function settings(cwd: string): Env {
  const file = join(cwd, ".dev.vars");
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : {};
  const env: Record<string, unknown> = { ...fromFile };
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}
