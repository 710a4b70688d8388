/**
 * Runs a bench entry the way Baton runs in production: bundled by esbuild (which wrangler and tsx
 * already bring), then executed by plain Node in a fresh process. So the figures are Baton's code as a
 * Worker runs it, not the tsx transpiler's (its loader hooks and ~60 MiB of its own), and each part of the
 * bench starts on a heap nothing else has grown. The entry prints one JSON line last; it is returned.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("../../", import.meta.url));

export async function runBundled(entryFile: string, args: readonly string[] = []): Promise<unknown> {
  const run = promisify(execFile);
  const dir = await mkdtemp(join(tmpdir(), "baton-bench-"));
  try {
    const bundle = join(dir, "entry.mjs");
    const esbuild = join(root, "node_modules", ".bin", "esbuild");
    const entry = join(root, "bench", "inprocess", entryFile);
    await run(esbuild, [
      entry,
      "--bundle",
      "--platform=node",
      "--format=esm",
      `--outfile=${bundle}`,
      "--log-level=warning",
    ]);
    const { stdout } = await run(process.execPath, ["--expose-gc", bundle, ...args], {
      maxBuffer: 64 * 2 ** 20,
    });
    return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
