/**
 * Every TypeScript block of the README and the guides compiles as shown: each is written as a module of
 * its own into a scratch folder of this checkout (so `@baton-agents/core/…` resolves to the sources, as
 * an app's would to the package) and type-checked with a user's tsconfig (strict, bundler resolution,
 * Workers' and Node's types). Blocks that are files of a project (`file=…`) are the project's, built by
 * test/package/guides.test.ts from the packed package. A snippet that uses what it does not define or
 * import fails here.
 */
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { guides } from "../../../scripts/docs/guides.js";

const ROOT = join(import.meta.dirname, "../../..");
const SCRATCH = join(ROOT, "test/.doc-snippets");

const snippets = guides().flatMap((guide) =>
  guide.blocks
    .filter((block) => (block.lang === "ts" || block.lang === "typescript") && block.file === undefined)
    .map((block) => ({
      where: `${guide.path} line ${block.line}`,
      name: `${guide.path.replaceAll(/[/.]/g, "_")}_${block.line}.ts`,
      // A block with no import or export is a script; `export {}` makes it a module as a file of its own.
      text: /^\s*(import|export)\s/m.test(block.text) ? block.text : `${block.text}\nexport {};\n`,
    })),
);

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

describe("the TypeScript of the README and the guides", () => {
  it("is there: the guides show code", () => {
    expect(snippets.length).toBeGreaterThan(0);
  });

  it("compiles, each block as a module of its own", async () => {
    await rm(SCRATCH, { recursive: true, force: true });
    await mkdir(SCRATCH, { recursive: true });
    for (const snippet of snippets) await writeFile(join(SCRATCH, snippet.name), snippet.text);
    // Snippets may import YAML as text, as a Worker's wrangler [[rules]] bundles it.
    await writeFile(
      join(SCRATCH, "yaml.d.ts"),
      'declare module "*.yaml" {\n  const text: string;\n  export default text;\n}\n',
    );
    const tsconfig = {
      compilerOptions: {
        target: "ES2023",
        module: "ESNext",
        moduleResolution: "Bundler",
        customConditions: ["baton-source"],
        lib: ["ES2023"],
        types: ["@cloudflare/workers-types", "node"],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        allowImportingTsExtensions: false,
      },
      include: ["*.ts"],
    };
    await writeFile(join(SCRATCH, "tsconfig.json"), JSON.stringify(tsconfig));
    const ran = await promisify(execFile)(
      join(ROOT, "node_modules/.bin/tsc"),
      ["-p", SCRATCH, "--pretty", "false"],
      {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const errors = ran.stdout
      .split("\n")
      .filter((line) => line.includes("error TS"))
      .map((line) => {
        const file = line.slice(line.lastIndexOf("/") + 1, line.indexOf("("));
        const snippet = snippets.find((s) => s.name === file);
        return snippet ? `${snippet.where}: ${line.slice(line.indexOf(")") + 3)}` : line;
      });
    expect(errors).toEqual([]);
  }, 120_000);
});
