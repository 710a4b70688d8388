import { builtinModules } from "node:module";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
import { BUNDLES } from "../../../bench/bundle/bundle-bench.js";
import { bundledFiles, duplicatePackages, packageShares } from "../../../bench/bundle/package-shares.js";
import { wranglerBuild } from "../../../bench/bundle/wrangler-build.js";

const ROOT = join(import.meta.dirname, "../../..");
const PROVIDER_SDKS = ["@ai-sdk/google", "@ai-sdk/anthropic", "@ai-sdk/openai", "workers-ai-provider"];

/** Bundles a Worker entry the way wrangler does (workerd conditions, ESM), and returns its metafile. */
async function bundle(entry: string): Promise<Metafile> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    // `baton-source`: this repo's `@baton-agents/core/…` imports run the sources (package.json `exports`).
    conditions: ["baton-source", "workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    // workerd provides these (nodejs_compat), as wrangler's build assumes.
    external: ["cloudflare:*", "node:*", ...builtinModules],
    loader: { ".yaml": "text" },
    logLevel: "silent",
  });
  return result.metafile;
}

const packagesOf = (metafile: Metafile) => packageShares(metafile).map((p) => p.name);

describe("what a Worker bundles", () => {
  it("ships only the openai-compatible provider SDK when that is the only provider it registers", async () => {
    const packages = packagesOf(await bundle("bench/bundle/openai-compatible-worker.ts"));
    expect(packages).toContain("@ai-sdk/openai-compatible");
    expect(packages.filter((name) => PROVIDER_SDKS.includes(name))).toEqual([]);
  });

  it("ships no provider SDK and no zod locale but English in the demo Worker, whose models are demo:", async () => {
    const metafile = await bundle("src/worker.ts");
    const packages = packagesOf(metafile);
    expect(packages.filter((name) => [...PROVIDER_SDKS, "@ai-sdk/openai-compatible"].includes(name))).toEqual(
      [],
    );
    const locales = [...bundledFiles(metafile).keys()].filter((f) => f.includes("zod/v4/locales/"));
    expect(locales).toEqual(["node_modules/zod/v4/locales/en.js"]);
  }, 30_000);

  it("holds one copy of each package", async () => {
    const metafile = await bundle("bench/bundle/openai-compatible-worker.ts");
    expect(Object.fromEntries(duplicatePackages(metafile))).toEqual({});
  });

  for (const { label, entry, targetKiB } of BUNDLES)
    it(`keeps the ${label} within ${targetKiB} KiB gzip as wrangler deploys it`, async () => {
      const built = await wranglerBuild(entry);
      expect(built.gzipKiB).toBeLessThanOrEqual(targetKiB);
    }, 60_000);

  it("serves the AI SDK's zod imports from the lean modules: English only, no code generator, no v3 layer", async () => {
    const { metafile } = await wranglerBuild("bench/bundle/openai-compatible-worker.ts");
    const files = [...bundledFiles(metafile).keys()];
    expect(files).toContain("node_modules/@ai-sdk/openai-compatible/dist/index.mjs");
    expect(files.filter((f) => f.includes("zod/v4/locales/"))).toEqual(["node_modules/zod/v4/locales/en.js"]);
    expect(files.filter((f) => f.includes("node_modules/zod/v3/"))).toEqual([]);
    // Of zod's compile module, only its error classes and `withParser` stay (~1 KB); the generator is ~30 KB.
    expect(bundledFiles(metafile).get("node_modules/zod/v4/core/compile.js") ?? 0).toBeLessThan(4_000);
    expect(packagesOf(metafile).filter((name) => ["standardwebhooks", "fast-sha256"].includes(name))).toEqual(
      [],
    );
  }, 60_000);
});
