/**
 * A precise ratio of two kinds of turn: many short rounds, each a block of one side's turns, two blocks of
 * the other's, then one more of the first (ABBA, so a drift within the round hits both sides alike), the
 * sides' order swapped every round. Each round gives one ratio of the sides' median turn times; the figure
 * is the median of those, with their interquartile range. workerd's CPU time is read around each block too.
 */
import { median } from "../timing.js";
import { percentile } from "./rounds.js";

export interface PairedOptions {
  /** Unrecorded rounds first (JIT, caches, connection pools). */
  warmup: number;
  rounds: number;
  /** Turns per block; a round runs four blocks, two per side. */
  block: number;
  /** Reads a CPU clock in ms (workerd's), if there is one. */
  cpu?: (() => number) | undefined;
}

export interface PairedResult {
  /** The median of the per-round ratios, and their 25th and 75th percentiles. */
  ratio: number;
  q1: number;
  q3: number;
  /** The median turn time of each side over all recorded rounds, in ms. */
  aMs: number;
  bMs: number;
  /** Turns measured per side. */
  turns: number;
  /** CPU ms per turn of each side over all recorded rounds, when a CPU clock was given. */
  cpu?: { aMs: number; bMs: number };
}

type Turn = () => Promise<number>;

interface Side {
  turn: Turn;
  /** This round's turn times. */
  times: number[];
  /** CPU ms over all recorded rounds. */
  cpuMs: number;
}

async function block(side: Side, count: number, cpu: (() => number) | undefined): Promise<void> {
  const before = cpu?.() ?? 0;
  for (let i = 0; i < count; i++) side.times.push(await side.turn());
  side.cpuMs += (cpu?.() ?? 0) - before;
}

/** Measures `a` against `b` (how many times slower `a` is) in interleaved ABBA rounds. */
export async function pairedRounds(a: Turn, b: Turn, options: PairedOptions): Promise<PairedResult> {
  const { cpu } = options;
  const ratios: number[] = [];
  const allA: number[] = [];
  const allB: number[] = [];
  const [sideA, sideB]: Side[] = [a, b].map((turn) => ({ turn, times: [], cpuMs: 0 }));
  if (!sideA || !sideB) throw new Error("two sides expected");
  for (let round = -options.warmup; round < options.rounds; round++) {
    if (round === 0) [sideA.cpuMs, sideB.cpuMs] = [0, 0];
    [sideA.times, sideB.times] = [[], []];
    const [first, second] = round % 2 === 0 ? [sideA, sideB] : [sideB, sideA];
    for (const side of [first, second, second, first]) await block(side, options.block, cpu);
    if (round < 0) continue;
    ratios.push(median(sideA.times) / median(sideB.times));
    allA.push(...sideA.times);
    allB.push(...sideB.times);
  }
  const turns = allA.length;
  return {
    ratio: median(ratios),
    q1: percentile(ratios, 25),
    q3: percentile(ratios, 75),
    aMs: median(allA),
    bMs: median(allB),
    turns,
    ...(cpu ? { cpu: { aMs: sideA.cpuMs / turns, bMs: sideB.cpuMs / turns } } : {}),
  };
}
