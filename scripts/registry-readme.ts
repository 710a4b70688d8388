/**
 * `prepack` / `postpack`: the packed README with absolute links (`registry-readme/absolute-links.ts`).
 *
 *   node --import tsx scripts/registry-readme.ts write     README.md rewritten, the original kept aside
 *   node --import tsx scripts/registry-readme.ts restore   the original back
 *
 * `write` first restores a copy a failed pack left behind, so the checkout's README is never lost.
 */
import { existsSync, statSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { absoluteLinks, githubRepository } from "./registry-readme/absolute-links.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const README = join(ROOT, "README.md");
/** Where the checkout's README waits while the pack runs (git-ignored with node_modules). */
const KEPT = join(ROOT, "node_modules/.cache/baton-readme/README.md");
/** The branch the registry's links point at. */
const REF = "main";

async function restore(): Promise<void> {
  if (existsSync(KEPT)) await rename(KEPT, README);
}

async function write(): Promise<void> {
  await restore();
  const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
  const { owner, name } = githubRepository(String(pkg.repository?.url ?? ""));
  const isFolder = (path: string) => {
    const full = join(ROOT, path);
    return existsSync(full) && statSync(full).isDirectory();
  };
  const text = await readFile(README, "utf8");
  await mkdir(join(KEPT, ".."), { recursive: true });
  await writeFile(KEPT, text);
  await writeFile(README, absoluteLinks(text, { owner, name, ref: REF, isFolder }));
}

const verb = process.argv[2];
if (verb === "write") await write();
else if (verb === "restore") await restore();
else {
  console.error("usage: registry-readme.ts write|restore");
  process.exitCode = 2;
}
