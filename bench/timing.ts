/**
 * Measures several functions side by side: rounds alternate between them so drift (JIT, GC, a busy
 * core) hits each alike. Returns the median time per call of each, in nanoseconds.
 */
export function timePerCall(
  fns: readonly (() => unknown)[],
  options = { rounds: 15, budgetMs: 40 },
): number[] {
  const perCall: number[][] = fns.map(() => []);
  // Calibrate: how many calls fit in the budget, per function.
  const reps = fns.map((fn) => {
    let count = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < options.budgetMs / 4) {
      fn();
      count++;
    }
    return Math.max(1, count * 4);
  });
  for (let round = 0; round < options.rounds; round++) {
    fns.forEach((fn, i) => {
      const r = reps[i] ?? 1;
      const t0 = process.hrtime.bigint();
      for (let k = 0; k < r; k++) fn();
      perCall[i]?.push(Number(process.hrtime.bigint() - t0) / r);
    });
  }
  return perCall.map(median);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** `a / b` as `1.23×`. */
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
