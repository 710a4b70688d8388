/**
 * `npm run bench -- bundle`: what `wrangler deploy` would upload, built with `wrangler deploy --dry-run`
 * into a temporary directory and gzipped, for the demo Worker (wrangler.toml's `main`) and for a Worker
 * whose only models are `openai-compatible:` ones, with each package's share from esbuild's metafile.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import type { Metafile } from "esbuild";
import { type PackageShare, packageShares } from "./package-shares.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WRANGLER = join(ROOT, "node_modules/.bin/wrangler");

interface Bundle {
  label: string;
  /** The entry, relative to the repo; `undefined` is wrangler.toml's `main`. */
  entry: string | undefined;
  targetKiB: number;
}

const BUNDLES: readonly Bundle[] = [
  { label: "demo Worker (wrangler.toml main)", entry: undefined, targetKiB: 250 },
  { label: "openai-compatible only", entry: "bench/bundle/openai-compatible-worker.ts", targetKiB: 150 },
];

interface Built {
  gzipKiB: number;
  rawKiB: number;
  shares: PackageShare[];
}

/** Builds `entry` as `wrangler deploy` would (minified or not) and measures the uploaded script. */
async function build(entry: string | undefined, minify: boolean): Promise<Built> {
  const dir = await mkdtemp(join(tmpdir(), "baton-bundle-"));
  try {
    const args = ["deploy", "--dry-run", "--outdir", dir, "--metafile", join(dir, "meta.json")];
    if (minify) args.push("--minify");
    if (entry) args.push(entry);
    await promisify(execFile)(WRANGLER, args, {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    // The script is named after the entry (`worker.js` for wrangler.toml's `main`).
    const name = (await readdir(dir)).find((file) => file.endsWith(".js"));
    if (name === undefined) throw new Error(`wrangler wrote no script into ${dir}.`);
    const script = await readFile(join(dir, name));
    // SAFETY: the file is esbuild's metafile, written by wrangler's `--metafile`.
    const metafile = JSON.parse(await readFile(join(dir, "meta.json"), "utf8")) as Metafile;
    return {
      gzipKiB: gzipSync(script).length / 1024,
      rawKiB: script.length / 1024,
      shares: packageShares(metafile),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const kib = (n: number) => `${n.toFixed(1)} KiB`;

export async function bundleBench(): Promise<void> {
  console.log("\nWorker bundle (wrangler deploy --dry-run, gzip of the uploaded script):");
  for (const bundle of BUNDLES) {
    const plain = await build(bundle.entry, false);
    const minified = await build(bundle.entry, true);
    const verdict = plain.gzipKiB <= bundle.targetKiB ? "meets" : "misses";
    console.log(
      `  ${bundle.label}: ${kib(plain.gzipKiB)} gzip (${kib(plain.rawKiB)} raw; ${verdict} the ≤ ${bundle.targetKiB} KiB target); with --minify ${kib(minified.gzipKiB)} gzip`,
    );
    const top = plain.shares.slice(0, 6).map((p) => `${p.name} ${(p.share * 100).toFixed(0)}%`);
    console.log(`    biggest (share of raw bytes): ${top.join(", ")}`);
  }
}
