/**
 * Two commands a user runs on what the package test packed and installed, with what they answer:
 * `npm publish --dry-run` of a tarball, and `wrangler deploy --dry-run` of a project (the build a deploy
 * uploads, offline, with its size and the files esbuild bundled).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Metafile } from "esbuild";
import { bundledFiles } from "../../bench/bundle/package-shares.js";
import { run } from "./processes.js";

/** `npm publish --dry-run <tarball>`: its exit code and everything it printed. */
export async function publishDryRun(tarball: string, cwd: string): Promise<{ code: number; output: string }> {
  const ran = await run("npm", ["publish", "--dry-run", tarball], cwd);
  return { code: ran.code, output: ran.stdout + ran.stderr };
}

export interface DryRun {
  code: number;
  output: string;
  /** What wrangler reports: "Total Upload: <kib> KiB / gzip: <gzipKiB> KiB". */
  kib: number;
  gzipKiB: number;
  /** The zod locales the bundle holds (paths as esbuild's metafile gives them). */
  locales: string[];
}

/** `npx wrangler deploy --dry-run --outdir <outdir> --metafile` in the project `dir`. */
export async function wranglerDryRun(dir: string, outdir: string): Promise<DryRun> {
  const ran = await run(
    "npx",
    ["wrangler", "deploy", "--dry-run", "--outdir", outdir, "--metafile", join(outdir, "meta.json")],
    dir,
  );
  const output = ran.stdout + ran.stderr;
  const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
  let locales: string[] = [];
  if (ran.code === 0) {
    // SAFETY: the metafile esbuild wrote for wrangler (`--metafile`).
    const meta = JSON.parse(await readFile(join(outdir, "meta.json"), "utf8")) as Metafile;
    // What the bundle keeps of each file (esbuild reads all 64 locales; tree-shaking drops what is unused).
    locales = [...bundledFiles(meta).keys()].filter((path) => path.includes("zod/v4/locales/"));
  }
  return { code: ran.code, output, kib: Number(size?.[1]), gzipKiB: Number(size?.[2]), locales };
}
