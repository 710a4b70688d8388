/**
 * The in-process benchmark: the real `Runner` in this Node process over the in-memory store, a two-agent
 * tree (the root transferred once, the specialist answers every turn) on zero-latency AI SDK models. So
 * what is measured is Baton's own cost per turn: routing, request building, the model port, the store.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Runner } from "../../src/defaults.js";
import { pairedRatio, percentile } from "../http/rounds.js";
import { median } from "../timing.js";
import { benchApps, conversation, HISTORY_BOUND, timedTurn } from "./bench-tree.js";
import { SessionPool } from "./session-pool.js";

const SIZES = [10, 1_000, 10_000] as const;

interface Case {
  label: string;
  runner: Runner;
  size: number;
  pool: SessionPool;
}

const us = (v: number) => `${v < 100 ? v.toFixed(1) : Math.round(v).toLocaleString("en")} µs`;

/** A fixed workload independent of Baton's code, timed in the same rounds, to judge the machine's noise. */
function reference(events: unknown): () => number {
  return () => {
    const t0 = process.hrtime.bigint();
    JSON.parse(JSON.stringify(events));
    return Number(process.hrtime.bigint() - t0) / 1_000;
  };
}

/**
 * The memory run, bundled first (esbuild, which wrangler and tsx already bring) and run by plain Node, so
 * the figures are Baton's and not the tsx transpiler's (~60 MiB of RSS of its own).
 */
async function memoryRun(): Promise<Record<string, number>> {
  const run = promisify(execFile);
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const dir = await mkdtemp(join(tmpdir(), "baton-bench-"));
  try {
    const bundle = join(dir, "memory-run.mjs");
    const esbuild = join(root, "node_modules", ".bin", "esbuild");
    const entry = join(root, "bench", "inprocess", "memory-run.ts");
    await run(esbuild, [
      entry,
      "--bundle",
      "--platform=node",
      "--format=esm",
      `--outfile=${bundle}`,
      "--log-level=warning",
    ]);
    const { stdout } = await run(process.execPath, ["--expose-gc", bundle]);
    const parsed: unknown = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
    if (typeof parsed !== "object" || parsed === null) throw new Error(`memory run printed ${stdout}`);
    return Object.fromEntries(
      Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number"),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A small seeded generator in [0, 1), so every run shuffles the same way. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1_664_525) + 1_013_904_223) >>> 0;
    return x / 2 ** 32;
  };
}

/**
 * 0..n-1 in a fresh random order (Fisher–Yates). Each round shuffles its cases, so no case always runs
 * right after the same one: a turn that leaves much garbage (the unbounded 10,000-event one) would
 * otherwise charge its collection to whichever case follows it in every round.
 */
function shuffled(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] ?? j, order[i] ?? i];
  }
  return order;
}

/** Runs every case once per round (in a shuffled order), then prints medians, p99s and same-run ratios. */
export async function inProcessBench(options = { warmup: 20, rounds: 200 }): Promise<void> {
  const apps = benchApps();
  const seeds = new Map<number, readonly unknown[]>();
  const cases: Case[] = [];
  for (const size of SIZES) {
    const seed = await conversation(apps, size);
    seeds.set(size, seed);
    for (const [history, runner] of [
      ["unbounded", apps.unbounded],
      [`bounded to ${HISTORY_BOUND}`, apps.bounded],
    ] as const)
      cases.push({ label: history, runner, size, pool: new SessionPool(apps, runner.app.name, seed) });
  }
  const ref = reference(seeds.get(10));
  const times: number[][] = cases.map(() => []);
  const refTimes: number[] = [];
  const next = lcg(12);
  for (let round = -options.warmup; round < options.rounds; round++) {
    for (const i of shuffled(cases.length, next)) {
      const c = cases[i];
      if (!c) continue;
      const sessionId = await c.pool.next();
      const elapsed = await timedTurn(c.runner, sessionId);
      if (round >= 0) times[i]?.push(elapsed);
    }
    if (round >= 0) refTimes.push(ref());
  }
  const memory = await memoryRun();

  const at = (size: number, bounded: boolean) => {
    const i = cases.findIndex((c) => c.size === size && c.label.startsWith("bounded") === bounded);
    return times[i] ?? [];
  };
  console.log(
    `\nIn-process turns: the real Runner, the in-memory store, zero-latency AI SDK models; a root that` +
      ` transferred once and a specialist that answers. ${options.rounds} interleaved rounds (shuffled) after` +
      ` ${options.warmup} of warm-up; a session is replaced once it grew by 10 events or 4%, so "10 events" is 10–18.`,
  );
  console.log(
    "  events   history            median        p99      vs 10 events (median of per-round ratios)",
  );
  for (const c of cases) {
    const t = times[cases.indexOf(c)] ?? [];
    const vs = pairedRatio(t, at(10, c.label.startsWith("bounded")));
    console.log(
      `  ${c.size.toLocaleString("en").padStart(6)}   ${c.label.padEnd(16)} ${us(median(t)).padStart(10)} ${us(percentile(t, 99)).padStart(10)}   ${vs.toFixed(2)}×`,
    );
  }
  const small = median(at(10, false));
  const refMedian = median(refTimes);
  console.log(
    `  same-run reference: JSON round trip of the 10-event session ${us(refMedian)}; the 10-event` +
      ` unbounded turn is ${(small / refMedian).toFixed(1)}× it (target ≤ 70 µs)`,
  );
  const verdict = (r: number, target: number) =>
    `${r.toFixed(2)}×  target ≤ ${target}×  ${r <= target ? "met" : "NOT met"}`;
  console.log(
    `  10,000 vs 10 events, unbounded:  ${verdict(pairedRatio(at(10_000, false), at(10, false)), 100)}`,
  );
  console.log(
    `  10,000 vs 10 events, bounded:    ${verdict(pairedRatio(at(10_000, true), at(10, true)), 1.5)}`,
  );
  console.log(
    `  2,000 turns in a fresh, bundled Node process (20 sessions, 10 → 210 events, unbounded): ${memory.turnsPerSecond} turns/s;` +
      ` RSS ${memory.rssBefore} → ${memory.rssAfter} MiB (target ≤ 80), heap ${memory.heapBefore} → ${memory.heapAfter} MiB` +
      ` (${memory.heapAfterGc} MiB after a GC)`,
  );
}
