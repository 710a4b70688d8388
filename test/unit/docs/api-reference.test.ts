/**
 * The API reference in docs/api/ is what `npm run docs:api` (typedoc with typedoc-plugin-markdown, from the
 * entries' declarations and doc comments) makes of today's sources: regenerated into a scratch folder and
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
    // Every entry of the package has its page, and the index links each.
    const index = fresh.get("README.md") ?? "";
    for (const page of ["index.md", "cloudflare.md", "mcp.md", "evals.md", "models/openai-provider.md"])
      expect(index).toContain(`(${page})`);
  }, 240_000);
});
