/** Interleaved measurement of HTTP turns: every case once per round, in an order that rotates per round. */
import { median } from "../timing.js";

export interface TurnCase {
  label: string;
  /** Runs one turn and returns its latency in ms. */
  turn: () => Promise<number>;
}

/**
 * Runs `warmup` unrecorded rounds, then `rounds` recorded ones. Rotating the order spreads any effect of
 * the previous case (a large turn's GC, say) over all cases alike. Returns each case's ms, round by round.
 */
export async function interleaved(
  cases: readonly TurnCase[],
  options: { warmup: number; rounds: number },
): Promise<number[][]> {
  const times: number[][] = cases.map(() => []);
  for (let round = -options.warmup; round < options.rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const i = (k + Math.max(0, round)) % cases.length;
      const ms = await cases[i]?.turn();
      if (round >= 0 && ms !== undefined) times[i]?.push(ms);
    }
  }
  return times;
}

/**
 * How much slower `a` is than `b`: the median of their per-round ratios. Each round's two turns ran
 * back to back, so a busy machine slows both alike and the ratio stays put.
 */
export const pairedRatio = (a: readonly number[], b: readonly number[]): number =>
  median(a.map((x, i) => x / (b[i] ?? Number.NaN)));

/** Hands out the items in turn, so each session of a pool grows alike. */
export function roundRobin<T>(items: readonly T[]): () => T {
  let next = 0;
  return () => {
    const item = items[next++ % items.length];
    if (item === undefined) throw new Error("roundRobin over an empty pool");
    return item;
  };
}

/** The p-th percentile (0–100) by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** `12.3 ms` for context next to a ratio: the median. */
export const ms = (values: number | readonly number[]): string =>
  `${(typeof values === "number" ? values : median(values)).toFixed(1)} ms`;

/** `PASS` or `MISS` against an upper bound. */
export const verdict = (measured: number, target: number): string => (measured <= target ? "PASS" : "MISS");
