/**
 * The API reference in docs/api/ is what `npm run docs:api` (typedoc with typedoc-plugin-markdown, from the
 * entries' declarations and doc comments, each entry named by its import path through
 * scripts/docs/typedoc-entry-names.mjs) makes of today's sources: regenerated into a scratch folder and
 * compared file by file, so a change to an export or its doc comment comes with the reference.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const COMMITTED = join(ROOT, "docs/api");

async function filesUnder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path).replaceAll("\\", "/"), await readFile(path, "utf8"));
  }
  return files;
}

const pkg: { name: string; exports: Record<string, string | Record<string, string>> } = JSON.parse(
  await readFile(join(ROOT, "package.json"), "utf8"),
);
const typedocConfig: { entryPoints: string[] } = JSON.parse(
  await readFile(join(ROOT, "typedoc.json"), "utf8"),
);

const scratch = await mkdtemp(join(tmpdir(), "baton-api-reference-"));
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("the generated API reference (docs/api)", () => {
  it("is current: npm run docs:api writes the same files", async () => {
    await promisify(execFile)(join(ROOT, "node_modules/.bin/typedoc"), ["--out", scratch], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    const fresh = await filesUnder(scratch);
    const committed = await filesUnder(COMMITTED);
    expect(fresh.size, "typedoc wrote no reference").toBeGreaterThan(10);
    expect([...committed.keys()].sort(), "run npm run docs:api").toEqual([...fresh.keys()].sort());
    const stale = [...fresh].filter(([path, text]) => committed.get(path) !== text).map(([path]) => path);
    expect(stale, "these pages differ from the sources: run npm run docs:api").toEqual([]);
    // Each entry typedoc.json names has its page under the import path a user writes, linked from the index.
    const index = fresh.get("README.md") ?? "";
    for (const source of typedocConfig.entryPoints) {
      const entry = Object.entries(pkg.exports).find(
        ([, target]) => typeof target === "object" && target["baton-source"] === `./${source}`,
      );
      expect(entry, `${source} is no package entry`).toBeDefined();
      const page = `${pkg.name}${entry?.[0].slice(1)}.md`;
      expect(fresh.has(page), page).toBe(true);
      expect(index).toContain(`(${page})`);
    }
  }, 240_000);
});
