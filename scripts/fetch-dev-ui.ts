/**
 * Lays ADK's own dev UI (the built Angular app in `@google/adk-devtools`, Apache-2.0) out as the static
 * assets `npm run dev` serves at `/dev-ui/`. The package is fetched with `npm pack`, pinned by version and
 * checked against its registry integrity, and only its `dist/browser` is kept: installing the package
 * would pull its Node server's dependencies (express, five database drivers, esbuild) into ours.
 *
 * Idempotent: it does nothing when the pinned version is already in place. Offline, it leaves a page that
 * says how to get the UI, so `wrangler dev` still starts.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const DEV_UI_PACKAGE = "@google/adk-devtools";
export const DEV_UI_VERSION = "2.0.0";
/** The registry's `dist.integrity` for the pinned version. */
const DEV_UI_INTEGRITY =
  "sha512-9q88zzLjSE5DQg+42JWBVZjEi4byuhKFod9T4jcgYj3IysulqDaEh+cObFe/54LJUI9RvpjFfAWxrC46BggYqQ==";

/** The assets root wrangler serves (`wrangler dev --assets`); the UI lives in its `dev-ui/` folder. */
export const ASSETS_ROOT = fileURLToPath(new URL("../.dev-ui-assets/", import.meta.url));
const UI_DIR = join(ASSETS_ROOT, "dev-ui");
const STAMP = join(ASSETS_ROOT, ".version");

const OFFLINE_PAGE = `<!doctype html><meta charset="utf-8"><title>Baton dev UI</title>
<p>ADK's dev UI could not be fetched (${DEV_UI_PACKAGE}@${DEV_UI_VERSION}). Run
<code>node --import tsx scripts/fetch-dev-ui.ts</code> with access to the npm registry, then reload.
The API works without it.</p>`;

async function stamped(): Promise<boolean> {
  const text = await readFile(STAMP, "utf8").catch(() => "");
  return text.trim() === `${DEV_UI_PACKAGE}@${DEV_UI_VERSION}`;
}

/** Fetches, verifies and unpacks the package into `ASSETS_ROOT/dev-ui`, with a same-origin runtime config. */
export async function fetchDevUi(): Promise<void> {
  if (await stamped()) return;
  const work = await mkdtemp(join(tmpdir(), "baton-dev-ui-"));
  try {
    const out = execFileSync(
      "npm",
      ["pack", `${DEV_UI_PACKAGE}@${DEV_UI_VERSION}`, "--json", "--pack-destination", work],
      { cwd: work, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    // SAFETY: `npm pack --json` prints an array with one object per packed package.
    const [packed] = JSON.parse(out) as { filename: string }[];
    if (!packed) throw new Error("npm pack printed no file");
    const tarball = join(work, packed.filename);
    const digest = `sha512-${createHash("sha512")
      .update(await readFile(tarball))
      .digest("base64")}`;
    if (digest !== DEV_UI_INTEGRITY) throw new Error(`integrity mismatch: ${digest}`);
    execFileSync("tar", ["-xzf", tarball, "-C", work, "package/dist/browser"]);
    await rm(ASSETS_ROOT, { recursive: true, force: true });
    await mkdir(ASSETS_ROOT, { recursive: true });
    await cp(join(work, "package/dist/browser"), UI_DIR, { recursive: true });
    // The UI calls its backend on the same origin (ADK's `adk web` writes the same file).
    const config = join(UI_DIR, "assets/config/runtime-config.json");
    await writeFile(config, `${JSON.stringify({ backendUrl: "" }, null, 2)}\n`);
    await writeFile(STAMP, `${DEV_UI_PACKAGE}@${DEV_UI_VERSION}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  fetchDevUi().catch(async (error: unknown) => {
    console.warn(`[dev-ui] not fetched: ${error instanceof Error ? error.message : String(error)}`);
    await mkdir(UI_DIR, { recursive: true });
    await writeFile(join(UI_DIR, "index.html"), OFFLINE_PAGE);
  });
}
