/**
 * What `wrangler deploy` would upload for a Worker entry: built with `wrangler deploy --dry-run` into a
 * temporary directory, with wrangler.toml's settings (minify, keep_names, alias), and gzipped.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import type { Metafile } from "esbuild";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WRANGLER = join(ROOT, "node_modules/.bin/wrangler");

export interface WranglerBuild {
  gzipKiB: number;
  rawKiB: number;
  metafile: Metafile;
}

/**
 * Builds `entry` (relative to the repo; `undefined` is wrangler.toml's `main`) as `wrangler deploy` would.
 * `minify: false` overrides wrangler.toml's `minify = true`, for comparison; `cwd` and `wrangler` build
 * another project (a fresh one that installed the packed tarball) with its own wrangler.
 */
export async function wranglerBuild(
  entry: string | undefined,
  options: { minify?: boolean; cwd?: string; wrangler?: string } = {},
) {
  const dir = await mkdtemp(join(tmpdir(), "baton-bundle-"));
  try {
    const args = ["deploy", "--dry-run", "--outdir", dir, "--metafile", join(dir, "meta.json")];
    if (options.minify === false) args.push("--no-minify");
    if (entry) args.push(entry);
    await promisify(execFile)(options.wrangler ?? WRANGLER, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    // The script is named after the entry (`worker.js` for wrangler.toml's `main`), beside its source map.
    const name = (await readdir(dir)).find((file) => file.endsWith(".js"));
    if (name === undefined) throw new Error(`wrangler wrote no script into ${dir}.`);
    const script = await readFile(join(dir, name));
    // SAFETY: the file is esbuild's metafile, written by wrangler's `--metafile`.
    const metafile = JSON.parse(await readFile(join(dir, "meta.json"), "utf8")) as Metafile;
    const build: WranglerBuild = {
      gzipKiB: gzipSync(script).length / 1024,
      rawKiB: script.length / 1024,
      metafile,
    };
    return build;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
