/**
 * Run as its own bundled process by the in-process bench: every case (10, 1,000 and 10,000 events,
 * unbounded and bounded) runs a block of turns per round, the cases' order shuffled each round (seeded),
 * plus a fixed reference workload. Prints one JSON line: each case's turn times and the reference's.
 */
import type { Runner } from "../../src/services/defaults.js";
import { benchApps, conversation, timedTurn } from "./bench-tree.js";
import { reference } from "./reference.js";
import { SessionPool } from "./session-pool.js";

const SIZES = [10, 1_000, 10_000] as const;

/** What the bench process prints: per case, every timed turn in µs, round by round. */
export interface TimedRounds {
  cases: { size: number; bounded: boolean; times: number[] }[];
  reference: number[];
  rounds: number;
  warmup: number;
  block: number;
}

interface Case {
  size: number;
  bounded: boolean;
  runner: Runner;
  pool: SessionPool;
}

/** A small seeded generator in [0, 1), so every run shuffles the same way. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1_664_525) + 1_013_904_223) >>> 0;
    return x / 2 ** 32;
  };
}

/** 0..n-1 in a fresh random order (Fisher–Yates), so no case always runs right after the same one. */
function shuffled(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] ?? j, order[i] ?? i];
  }
  return order;
}

const [warmup = 10, rounds = 100, block = 4] = process.argv.slice(2).map(Number);
const apps = benchApps();
const cases: Case[] = [];
let small: readonly unknown[] = [];
for (const size of SIZES) {
  const seed = await conversation(apps, size);
  if (size === 10) small = seed;
  for (const bounded of [false, true]) {
    const runner = bounded ? apps.bounded : apps.unbounded;
    cases.push({ size, bounded, runner, pool: new SessionPool(apps, runner.app.name, seed) });
  }
}
// Steady state first: V8 optimises a function only after many calls, and a Worker isolate serves many
// turns. Each case runs untimed turns until 1,000 of them or 400 ms, whichever comes first.
for (const c of cases) {
  const until = performance.now() + 400;
  for (let k = 0; k < 1_000 && performance.now() < until; k++) await timedTurn(c.runner, await c.pool.next());
}
// A block of turns per case and round: what a case's turns leave for the collector is mostly collected
// during that case's own block, not charged to whichever case happens to run next.
const times: number[][] = cases.map(() => []);
const refTimes: number[] = [];
const next = lcg(12);
for (let round = -warmup; round < rounds; round++) {
  for (const i of shuffled(cases.length, next)) {
    const c = cases[i];
    if (!c) continue;
    for (let k = 0; k < block; k++) {
      const sessionId = await c.pool.next();
      const elapsed = await timedTurn(c.runner, sessionId);
      if (round >= 0) times[i]?.push(elapsed);
    }
  }
  if (round >= 0) refTimes.push(reference(small));
}
const result: TimedRounds = {
  cases: cases.map((c, i) => ({ size: c.size, bounded: c.bounded, times: times[i] ?? [] })),
  reference: refTimes,
  rounds,
  warmup,
  block,
};
console.log(JSON.stringify(result));
