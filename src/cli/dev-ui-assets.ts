/**
 * Lays ADK's own dev UI (the built Angular app in `@google/adk-devtools`, Apache-2.0) out as the static
 * assets `wrangler dev --assets <root>` serves at `/dev-ui/` (decision 006). The package is fetched with
 * `npm pack`, pinned by version and checked against its registry integrity, and only its `dist/browser` is
 * kept: installing it would pull its Node server's dependencies (express, five database drivers, esbuild).
 * The copy gets a same-origin runtime config and Baton's fix to its instruction check (`instruction-check.ts`).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scopeInstructionCheck } from "./instruction-check.js";

export const DEV_UI_PACKAGE = "@google/adk-devtools";
export const DEV_UI_VERSION = "2.0.0";
/** The registry's `dist.integrity` for the pinned version. */
const DEV_UI_INTEGRITY =
  "sha512-9q88zzLjSE5DQg+42JWBVZjEi4byuhKFod9T4jcgYj3IysulqDaEh+cObFe/54LJUI9RvpjFfAWxrC46BggYqQ==";
/** What `.version` holds once the pinned UI is in place with Baton's changes (a new suffix refetches). */
const STAMP_TEXT = `${DEV_UI_PACKAGE}@${DEV_UI_VERSION}+baton.1`;

const stampOf = (root: string) => join(root, ".version");
const uiDir = (root: string) => join(root, "dev-ui");

/** Whether the pinned UI, with Baton's changes, is already under `root`. */
export async function devUiCurrent(root: string): Promise<boolean> {
  const text = await readFile(stampOf(root), "utf8").catch(() => "");
  return text.trim() === STAMP_TEXT;
}

/** `npm <args>` as the running npm would be run (`npm_execpath` inside npm scripts), else `npm` on PATH. */
function npm(args: readonly string[], cwd: string): string {
  const cli = process.env.npm_execpath;
  const [command, argv] =
    cli && /\.[cm]?js$/.test(cli) ? [process.execPath, [cli, ...args]] : ["npm", [...args]];
  return execFileSync(command, argv, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    shell: command === "npm" && process.platform === "win32",
  });
}

/** Applies Baton's fix to the one script of the UI that holds the instruction check; false if none does. */
async function patchInstructionCheck(dir: string): Promise<boolean> {
  let patched = false;
  for (const name of await readdir(dir)) {
    if (!name.endsWith(".js")) continue;
    const fixed = scopeInstructionCheck(await readFile(join(dir, name), "utf8"));
    if (fixed === undefined) continue;
    await writeFile(join(dir, name), fixed);
    patched = true;
  }
  return patched;
}

/**
 * Fetches, verifies and unpacks the pinned UI into `root/dev-ui`; nothing when it is there already.
 * Resolves to what it did; throws when the registry cannot be reached or the tarball is not the pinned one.
 */
export async function fetchDevUi(root: string): Promise<"current" | "fetched"> {
  if (await devUiCurrent(root)) return "current";
  const work = await mkdtemp(join(tmpdir(), "baton-dev-ui-"));
  try {
    const out = npm(
      ["pack", `${DEV_UI_PACKAGE}@${DEV_UI_VERSION}`, "--json", "--pack-destination", work],
      work,
    );
    // SAFETY: `npm pack --json` prints an array with one object per packed package.
    const [packed] = JSON.parse(out.slice(out.indexOf("["))) as { filename: string }[];
    if (!packed) throw new Error("npm pack printed no file");
    const tarball = join(work, packed.filename);
    const digest = `sha512-${createHash("sha512")
      .update(await readFile(tarball))
      .digest("base64")}`;
    if (digest !== DEV_UI_INTEGRITY) throw new Error(`integrity mismatch: ${digest}`);
    execFileSync("tar", ["-xzf", tarball, "-C", work, "package/dist/browser"]);
    const unpacked = join(work, "package/dist/browser");
    if (!(await patchInstructionCheck(unpacked)))
      console.warn(
        `[dev-ui] ${DEV_UI_PACKAGE}@${DEV_UI_VERSION} has no instruction check to scope per agent.`,
      );
    // The UI calls its backend on the same origin (ADK's `adk web` writes the same file).
    const config = join(unpacked, "assets/config/runtime-config.json");
    await writeFile(config, `${JSON.stringify({ backendUrl: "" }, null, 2)}\n`);
    await rm(root, { recursive: true, force: true });
    await mkdir(root, { recursive: true });
    await cp(unpacked, uiDir(root), { recursive: true });
    await writeFile(stampOf(root), `${STAMP_TEXT}\n`);
    return "fetched";
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Offline: a page at `/dev-ui/` that says how to get the UI, so `wrangler dev` still starts. */
export async function writeOfflinePage(root: string, command: string): Promise<void> {
  await mkdir(uiDir(root), { recursive: true });
  await writeFile(
    join(uiDir(root), "index.html"),
    `<!doctype html><meta charset="utf-8"><title>Baton dev UI</title>
<p>ADK's dev UI could not be fetched (${DEV_UI_PACKAGE}@${DEV_UI_VERSION}). Run <code>${command}</code>
with access to the npm registry, then reload. The API works without it.</p>\n`,
  );
}
