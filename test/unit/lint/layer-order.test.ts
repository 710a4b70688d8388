import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const BIOME = join(ROOT, "node_modules/.bin/biome");

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

interface Probe {
  folder: string;
  source: string;
}

/**
 * Lints each probe as if it were a file of `src/<folder>/`, with the project's biome.json, in one biome
 * run: every probe is written into its folder under a unique name (so the per-folder overrides apply)
 * and removed after. Returns each probe's diagnostics, in order.
 */
async function lintAs(...probes: Probe[]): Promise<Diagnostic[][]> {
  const files = probes.map(({ folder }) => join("src", folder, `zz-layer-probe-${randomUUID()}.ts`));
  await Promise.all(probes.map((probe, i) => writeFile(join(ROOT, files[i] ?? ""), probe.source)));
  try {
    const { stdout } = await promisify(execFile)(BIOME, ["lint", "--reporter=json", ...files], {
      cwd: ROOT,
    }).catch(
      // biome exits 1 when it reports errors; the report is still on stdout.
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }),
    );
    const report: { diagnostics: Diagnostic[] } = JSON.parse(stdout);
    return files.map((file) => report.diagnostics.filter((d) => d.location.path === file));
  } finally {
    await Promise.all(files.map((file) => rm(join(ROOT, file), { force: true })));
  }
}

const categories = (diagnostics: Diagnostic[]) => diagnostics.map((d) => d.category);

describe("the layer order, checked by npm test's lint", () => {
  it("rejects agents/ importing the concrete model resolver", async () => {
    const [diagnostics = []] = await lintAs({
      folder: "agents",
      source:
        'import { ModelRegistry } from "../models/model-registry.js";\nexport const probe = ModelRegistry;\n',
    });
    expect(categories(diagnostics)).toEqual(["lint/style/noRestrictedImports"]);
    expect(diagnostics[0]?.message).toMatch(/src\/agents\/ may import only from src\/core\/, src\/router\//);
  });

  it("accepts agents/ importing core, router and transfer", async () => {
    const [diagnostics] = await lintAs({
      folder: "agents",
      source:
        'import type { ModelPort } from "../core/ports.js";\n' +
        'import { transferTargets } from "../router/transfer-targets.js";\n' +
        'import { resolveTransfer } from "../transfer/resolve-transfer.js";\n' +
        "export type Probe = ModelPort;\nexport const probe = [transferTargets, resolveTransfer];\n",
    });
    expect(diagnostics).toEqual([]);
  });

  it("rejects every other import against the order, and packages a layer must not touch", async () => {
    const illegal = [
      ["core", 'import { Runner } from "../runner/runner.js";'],
      ["router", 'import { LlmAgent } from "../agents/llm-agent.js";'],
      ["transfer", 'import { Runner } from "../runner/runner.js";'],
      ["runner", 'import { InMemorySessionStore } from "../session/in-memory-store.js";'],
      ["session", 'import { Runner } from "../runner/runner.js";'],
      ["models", 'import { LlmAgent } from "../agents/llm-agent.js";'],
      ["core", 'import { Hono } from "hono";'],
      ["agents", 'import { generateText } from "ai";'],
      ["evals", 'import { evals } from "../handlers/evals.js";'],
      ["evals", 'import { Hono } from "hono";'],
    ];
    const results = await lintAs(
      ...illegal.map(([folder = "", line]) => ({ folder, source: `${line}\nexport const probe = 1;\n` })),
    );
    for (const diagnostics of results)
      expect(categories(diagnostics)).toContain("lint/style/noRestrictedImports");
  });

  it("keeps the clock, randomness, crypto and fetch out of the pure folders", async () => {
    const source =
      "export const probe = async () => [Date.now(), Math.random(), crypto.randomUUID(), await fetch('x')];\n";
    const results = await lintAs(...["core", "router", "transfer"].map((folder) => ({ folder, source })));
    for (const diagnostics of results) {
      expect(categories(diagnostics).filter((c) => c === "lint/style/noRestrictedGlobals")).toHaveLength(3);
      expect(diagnostics.some((d) => d.category === "plugin" && /Math\.random/.test(d.message))).toBe(true);
    }
  });

  it("lets the pure folders use Math's pure functions, and the adapters use the clock", async () => {
    const results = await lintAs(
      { folder: "router", source: "export const probe = Math.max(1, 2);\n" },
      { folder: "session", source: "export const probe = () => [Date.now(), Math.random()];\n" },
    );
    expect(results).toEqual([[], []]);
  });
});
