/**
 * The projects the guides in docs/ describe, built as a reader would build them: each guide whose code
 * blocks name project files (`file=src/worker.ts`) is written into a fresh folder, its `npm install …`
 * line run with the packed tarball in place of `@baton-agents/core`, and the Worker built by
 * `wrangler deploy --dry-run` (the deploy itself needs an account: the dry run checks everything but the
 * upload).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docFiles, docInstall } from "../../scripts/docs/doc-blocks.js";
import { run } from "./processes.js";

const ROOT = join(import.meta.dirname, "../..");
const DOCS = join(ROOT, "docs");
const repoPkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));

/** The guides that describe a project: at least one block names a file. */
const guides = (await readdir(DOCS))
  .filter((name) => name.endsWith(".md"))
  .map((name) => ({ name, text: "" }));
for (const guide of guides) guide.text = await readFile(join(DOCS, guide.name), "utf8");
const projects = guides.filter((guide) => docFiles(guide.text).size > 0);

let work: string;
let tarball: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "baton-guides-"));
  const packed = await run("npm", ["pack", "--json", "--pack-destination", work], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as { filename: string }[];
  if (!info) throw new Error("npm pack reported no tarball.");
  tarball = join(work, info.filename);
}, 300_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the projects docs/ describes, from the packed tarball", () => {
  it("include the one deploying.md adds Baton to", () => {
    expect(projects.map((p) => p.name)).toContain("deploying.md");
  });

  for (const guide of projects) {
    it(`builds ${guide.name}'s project: its npm install line, its files, wrangler deploy --dry-run`, async () => {
      const dir = join(work, guide.name.replace(/\.md$/, ""));
      await mkdir(dir, { recursive: true });
      for (const [file, text] of docFiles(guide.text)) {
        await mkdir(dirname(join(dir, file)), { recursive: true });
        await writeFile(join(dir, file), text);
      }
      await writeFile(
        join(dir, "package.json"),
        JSON.stringify({ name: "guide", private: true, type: "module" }),
      );
      const packages = docInstall(guide.text);
      expect(packages, "the guide's npm install line").toContain("@baton-agents/core");
      const installed = await run(
        "npm",
        [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          ...packages.map((name) => (name === "@baton-agents/core" ? tarball : name)),
        ],
        dir,
      );
      expect(installed.code, installed.stderr).toBe(0);
      const tools = await run(
        "npm",
        [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          "-D",
          `wrangler@${repoPkg.devDependencies.wrangler}`,
        ],
        dir,
      );
      expect(tools.code, tools.stderr).toBe(0);
      const built = await run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", "dist"], dir);
      expect(built.code, built.stdout + built.stderr).toBe(0);
      expect(await readdir(join(dir, "dist"))).toContain("worker.js");
    }, 600_000);
  }
});
