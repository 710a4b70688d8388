/**
 * The twin bench (issue 29): Baton against Google's ADK for TypeScript on the same growing sessions, each side
 * in its own process, alternating ADK then Baton for `rounds` rounds, so both see the same machine load.
 * Verdicts are ratios from the same round: per-turn median, RSS after 2,000 turns, and each side's cost of a
 * turn on 10,000 events against one on 10 (Baton also with its 50-event history bound). Baton runs on the
 * default in-memory store, which keeps no traces, as ADK's runner keeps no spans (decision 041); a third
 * process per round runs Baton on a store that keeps them, so each turn records its trace as a Worker's does.
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
  history: Record<string, number>;
  bounded: Record<string, number> | null;
  wrongTurns: number;
}

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Each side as one ESM file, as the anchor and a deployed Worker run: esbuild, not minified, NODE_ENV
 * production, no source maps. ADK TS is left to load from node_modules (its published build), as the anchor does.
 */
async function bundles(dir: string): Promise<Record<"adk" | "baton", string>> {
  const out = { adk: join(dir, "adk.mjs"), baton: join(dir, "baton.mjs") };
  for (const which of ["adk", "baton"] as const)
    await build({
      entryPoints: [fileURLToPath(new URL(`./${which}-entry.ts`, import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: out[which],
      external: ["@google/adk"],
      define: { "process.env.NODE_ENV": '"production"' },
      conditions: ["baton-source"],
      nodePaths: [join(ROOT, "node_modules")],
      logLevel: "warning",
    });
  return out;
}

async function side(file: string, env: Record<string, string> = {}): Promise<SideResult> {
  const { stdout } = await run(process.execPath, ["--expose-gc", file], {
    maxBuffer: 1 << 20,
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as SideResult;
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const growth = (r: SideResult, key: "history" | "bounded") => {
  const h = r[key];
  return h ? (h["10000"] ?? Number.NaN) / (h["10"] ?? Number.NaN) : Number.NaN;
};

export async function twinBench(rounds = 3): Promise<void> {
  console.log(
    "\nTwin bench: Baton against ADK TS 2.0 (same tree, scripted models, sessions; own process each)",
  );
  try {
    createRequire(import.meta.url).resolve("@google/adk");
  } catch {
    console.log("  skipped: @google/adk (a dev dependency) is not installed");
    return;
  }
  // In the repo, so the ADK bundle resolves `@google/adk` from the project's node_modules.
  const dir = await mkdtemp(join(ROOT, "node_modules", ".baton-twin-"));
  try {
    const files = await bundles(dir);
    for (let round = 1; round <= rounds; round++) await oneRound(round, files);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function oneRound(round: number, files: Record<"adk" | "baton", string>): Promise<void> {
  const adk = await side(files.adk);
  const baton = await side(files.baton);
  const traced = await side(files.baton, { BATON_TWIN_TRACES: "1" });
  if (adk.wrongTurns + baton.wrongTurns + traced.wrongTurns > 0)
    throw new Error(
      `Twin round ${round}: turns with the wrong model calls (ADK ${adk.wrongTurns}, Baton ${baton.wrongTurns}, ` +
        `Baton keeping traces ${traced.wrongTurns}).`,
    );
  console.log(
    `  round ${round}: per turn Baton/ADK ${ratio(baton.turnMedianUs, adk.turnMedianUs)} ` +
      `(${baton.turnMedianUs.toFixed(0)} vs ${adk.turnMedianUs.toFixed(0)} µs); ` +
      `RSS after 2,000 turns Baton/ADK ${ratio(baton.rssAfterTurnsMiB, adk.rssAfterTurnsMiB)} ` +
      `(${baton.rssAfterTurnsMiB.toFixed(0)} vs ${adk.rssAfterTurnsMiB.toFixed(0)} MiB); ` +
      `10,000 vs 10 events: Baton ${growth(baton, "history").toFixed(2)}× unbounded, ` +
      `${growth(baton, "bounded").toFixed(2)}× bounded to 50, ADK ${growth(adk, "history").toFixed(0)}×; ` +
      `keeping traces (as a Worker does): per turn ${ratio(traced.turnMedianUs, adk.turnMedianUs)}, ` +
      `RSS ${traced.rssAfterTurnsMiB.toFixed(0)} MiB`,
  );
}
