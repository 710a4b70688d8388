import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const STARTER = join(ROOT, "packages/create-baton-agents");
const BIN = join(STARTER, "bin/create-baton-agents.mjs");
const run = promisify(execFile);

/** The bindings part of a wrangler.toml: section headers and the binding keys under them, one per line. */
function bindingLines(toml: string): Set<string> {
  const lines = toml.split("\n").map((l) => l.trim());
  const firstSection = lines.findIndex((l) => l.startsWith("["));
  const kept = new Set<string>();
  let section = "";
  for (const line of lines.slice(firstSection)) {
    if (line.startsWith("[")) {
      section = line;
      if (section !== "[alias]" && section !== "[dev]") kept.add(section);
    } else if (
      /^(name|class_name|binding|bucket_name|queue|dead_letter_queue|tag|new_sqlite_classes|crons)\s*=/.test(
        line,
      )
    )
      kept.add(
        `${section} ${line.split("=")[0]?.trim()}${/^crons/.test(line) ? "" : ` = ${line.split("=")[1]?.trim()}`}`,
      );
  }
  return kept;
}

describe("create-baton-agents", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "baton-starter-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("writes the project with its name and the given @baton-agents/core spec, a relative path made absolute", async () => {
    const { stdout } = await run(process.execPath, [BIN, "My App", "--baton-spec", "./core.tgz"], {
      cwd: dir,
    });
    expect(stdout).toContain("npm install && npm run dev");
    const app = join(dir, "My App");
    const files = await readdir(app, { recursive: true });
    expect(files.sort()).toEqual(
      [
        ".dev.vars.example",
        ".gitignore",
        "README.md",
        "package.json",
        "src",
        "src/worker.ts",
        "test",
        "test/env.d.ts",
        "test/turn.test.ts",
        "tsconfig.json",
        "vitest.config.ts",
        "wrangler.toml",
      ].sort(),
    );
    const pkg = JSON.parse(await readFile(join(app, "package.json"), "utf8"));
    expect(pkg.name).toBe("my-app");
    expect(pkg.dependencies["@baton-agents/core"]).toBe(`file:${join(dir, "core.tgz")}`);
    expect(await readFile(join(app, "wrangler.toml"), "utf8")).toMatch(/^name = "my-app"$/m);
    expect(await readFile(join(app, "test/turn.test.ts"), "utf8")).toContain('appName: "my-app"');
    expect(await readFile(join(app, "src/worker.ts"), "utf8")).not.toContain("baton-app-name");
  });

  it("depends on the published range of @baton-agents/core when no spec is given", async () => {
    await run(process.execPath, [BIN, "plain"], { cwd: dir });
    const pkg = JSON.parse(await readFile(join(dir, "plain/package.json"), "utf8"));
    const core = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
    expect(pkg.dependencies["@baton-agents/core"]).toBe(`^${core.version}`);
  });

  it("refuses a directory that holds anything, and overwrites nothing", async () => {
    await run(process.execPath, [BIN, "taken"], { cwd: dir });
    await writeFile(join(dir, "taken/src/worker.ts"), "mine");
    const failed = await run(process.execPath, [BIN, "taken"], { cwd: dir }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain("is not empty");
    expect(await readFile(join(dir, "taken/src/worker.ts"), "utf8")).toBe("mine");
  });

  it("pins the versions of the tools this repo tests with", async () => {
    const template = JSON.parse(await readFile(join(STARTER, "template/package.json"), "utf8"));
    const repo = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
    const all = { ...template.dependencies, ...template.devDependencies };
    for (const name of [
      "@cloudflare/vitest-pool-workers",
      "vitest",
      "wrangler",
      "@cloudflare/workers-types",
      "zod",
      "hono",
    ])
      expect(all[name], name).toBe(repo.devDependencies[name] ?? repo.dependencies[name]);
    // The repo pins "5.9"; the template the exact release the lock file holds.
    expect(all.typescript.startsWith(repo.devDependencies.typescript)).toBe(true);
  });

  it("declares every Durable Object, migration, queue, KV namespace, R2 bucket, email binding and trigger the demo's wrangler.toml does", async () => {
    const demo = bindingLines(await readFile(join(ROOT, "wrangler.toml"), "utf8"));
    const starter = bindingLines(await readFile(join(STARTER, "template/wrangler.toml"), "utf8"));
    expect(demo.size).toBeGreaterThan(20);
    expect([...demo].filter((line) => !starter.has(line))).toEqual([]);
  });
});
