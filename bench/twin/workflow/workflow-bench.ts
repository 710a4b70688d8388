/**
 * `npm run bench -- workflow` (and part of `-- twin`): a workflow turn on Baton against ADK TS 2.0, each in its
 * own process, bundled as the twin bench bundles its sides, alternating ADK then Baton for `rounds` rounds.
 * The scenario is the workflow twin's "fan-out + join" (`scenarios.ts`); the target is ≤ 0.3× ADK's per-turn
 * time (issue 45).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";

interface SideResult {
  side: "adk" | "baton";
  turnMedianUs: number;
  rssAfterTurnsMiB: number;
  wrongTurns: number;
}

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

async function bundle(dir: string, which: "adk" | "baton"): Promise<string> {
  const outfile = join(dir, `workflow-${which}.mjs`);
  await build({
    entryPoints: [fileURLToPath(new URL(`./${which}-entry.ts`, import.meta.url))],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    external: ["@google/adk"],
    define: { "process.env.NODE_ENV": '"production"' },
    conditions: ["baton-source"],
    nodePaths: [join(ROOT, "node_modules")],
    logLevel: "warning",
  });
  return outfile;
}

async function side(file: string): Promise<SideResult> {
  const { stdout } = await run(process.execPath, ["--expose-gc", file], { maxBuffer: 1 << 20, cwd: ROOT });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as SideResult;
}

export async function workflowTwinBench(rounds = 3): Promise<void> {
  console.log("\nWorkflow twin: a fan-out + join workflow turn, Baton against ADK TS 2.0 (own process each)");
  try {
    createRequire(import.meta.url).resolve("@google/adk");
  } catch {
    console.log("  skipped: @google/adk (a dev dependency) is not installed");
    return;
  }
  const dir = await mkdtemp(join(ROOT, "node_modules", ".baton-workflow-twin-"));
  try {
    const files = { adk: await bundle(dir, "adk"), baton: await bundle(dir, "baton") };
    for (let round = 1; round <= rounds; round++) {
      const adk = await side(files.adk);
      const baton = await side(files.baton);
      if (adk.wrongTurns + baton.wrongTurns > 0)
        throw new Error(
          `Workflow twin round ${round}: wrong outputs (ADK ${adk.wrongTurns}, Baton ${baton.wrongTurns}).`,
        );
      const ratio = baton.turnMedianUs / adk.turnMedianUs;
      console.log(
        `  round ${round}: per workflow turn Baton/ADK ${ratio.toFixed(2)}× (${baton.turnMedianUs.toFixed(0)} vs ` +
          `${adk.turnMedianUs.toFixed(0)} µs; ${ratio <= 0.3 ? "meets" : "misses"} the ≤ 0.3× target); RSS after 2,000 ` +
          `turns ${baton.rssAfterTurnsMiB.toFixed(0)} vs ${adk.rssAfterTurnsMiB.toFixed(0)} MiB`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
