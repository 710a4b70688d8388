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
        "evals",
        "evals/billing.evalset.json",
        "package.json",
        "src",
        "src/app.ts",
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
    for (const file of ["src/worker.ts", "src/app.ts", "evals/billing.evalset.json", "README.md"])
      expect(await readFile(join(app, file), "utf8"), file).not.toContain("baton-app-name");
    expect(await readFile(join(app, "evals/billing.evalset.json"), "utf8")).toContain('"app_name": "my-app"');
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
      "tsx",
    ])
      expect(all[name], name).toBe(repo.devDependencies[name] ?? repo.dependencies[name]);
    // The repo pins "5.9"; the template the exact release the lock file holds.
    expect(all.typescript.startsWith(repo.devDependencies.typescript)).toBe(true);
  });

  it("declares every Durable Object, migration, queue, KV namespace, R2 bucket, email binding and trigger the demo's wrangler.toml does", async () => {
    const demo = bindingLines(await readFile(join(ROOT, "wrangler.toml"), "utf8"));
    // The starter names its queues and bucket after the project, and keeps mail as a commented opt-in.
    const template = (await readFile(join(STARTER, "template/wrangler.toml"), "utf8"))
      .replaceAll('"baton-app-name-', '"baton-')
      .replace(/^# (\[\[send_email\]\])\n# (name = "SEND_EMAIL")$/m, "$1\n$2");
    const starter = bindingLines(template);
    expect(demo.size).toBeGreaterThan(20);
    expect([...demo].filter((line) => !starter.has(line))).toEqual([]);
  });

  it("keeps mail off in the Worker and in wrangler.toml alike: a deploy with send_email needs Email Routing", async () => {
    const toml = await readFile(join(STARTER, "template/wrangler.toml"), "utf8");
    const worker = await readFile(join(STARTER, "template/src/worker.ts"), "utf8");
    expect(toml).toMatch(/^# \[\[send_email\]\]$/m);
    expect(toml).not.toMatch(/^\[\[send_email\]\]/m);
    expect(worker).toMatch(/^ {2}\/\/ email: inboundEmail,/m);
    expect(worker).not.toMatch(/^ {2}email:/m);
  });

  it("sets nodejs_compat and names every queue after the project, in wrangler.toml and the Worker's options alike", async () => {
    const toml = await readFile(join(STARTER, "template/wrangler.toml"), "utf8");
    const worker = await readFile(join(STARTER, "template/src/worker.ts"), "utf8");
    expect(toml).toMatch(/^compatibility_flags = \[[^\]]*"nodejs_compat"/m);
    const queues = new Set(
      [...toml.matchAll(/^(?:queue|dead_letter_queue) = "([^"]+)"$/gm)].map((m) => m[1]),
    );
    expect([...queues].sort()).toEqual([
      "baton-app-name-a2a-push",
      "baton-app-name-turns",
      "baton-app-name-turns-dlq",
    ]);
    expect(worker).toContain('deadLetterQueue: "baton-app-name-turns-dlq"');
    expect(worker).toContain('a2a: { pushQueue: "baton-app-name-a2a-push" }');
    // A KV namespace with a made-up id would fail the first deploy; without one, wrangler creates it.
    expect(toml).not.toMatch(/^id = /m);
  });

  it("lists, in its README's first deploy, a command for every queue and bucket before the deploy and the secret after", async () => {
    const toml = await readFile(join(STARTER, "template/wrangler.toml"), "utf8");
    const readme = await readFile(join(STARTER, "template/README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## First deploy"));
    const commands = /```sh\n([\s\S]*?)```/.exec(section)?.[1]?.trim().split("\n") ?? [];
    const deploy = commands.indexOf("npm run deploy");
    expect(deploy).toBeGreaterThan(0);
    const before = commands.slice(0, deploy);
    const queues = new Set(
      [...toml.matchAll(/^(?:queue|dead_letter_queue) = "([^"]+)"$/gm)].map((m) => m[1]),
    );
    for (const queue of queues) expect(before).toContain(`npx wrangler queues create ${queue}`);
    for (const [, bucket] of toml.matchAll(/^bucket_name = "([^"]+)"$/gm))
      expect(before).toContain(`npx wrangler r2 bucket create ${bucket}`);
    expect(commands.slice(deploy)).toContain("npx wrangler secret put API_TOKENS");
  });

  it("ships the repository's Apache-2.0 LICENSE, word for word", async () => {
    const root = await readFile(join(ROOT, "LICENSE"), "utf8");
    expect(root).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    expect(await readFile(join(STARTER, "LICENSE"), "utf8")).toBe(root);
  });
});
