/**
 * The in-process benchmark: the real `Runner` over the in-memory store, a two-agent tree (the root
 * transferred once, the specialist answers every turn) on zero-latency AI SDK models. So what is measured
 * is Baton's own cost per turn: routing, request building, the model port, the store, the turn's trace.
 * Both parts run bundled in fresh Node processes (`bundled.ts`): the timed rounds, then the memory run.
 */
import { pairedRatio, percentile } from "../http/rounds.js";
import { median } from "../timing.js";
import { HISTORY_BOUND } from "./bench-tree.js";
import { runBundled } from "./bundled.js";
import type { TimedRounds } from "./timed-rounds.js";

const us = (v: number) => `${v < 100 ? v.toFixed(1) : Math.round(v).toLocaleString("en")} µs`;

/** A number a bundled run printed under `key`, or NaN when it printed none. */
const field = (result: unknown, key: string): number => {
  const value: unknown = typeof result === "object" && result !== null ? Reflect.get(result, key) : undefined;
  return typeof value === "number" ? value : Number.NaN;
};

/** Prints medians, p99s and same-run ratios of the timed rounds, then the memory run's figures. */
export async function inProcessBench(options = { warmup: 10, rounds: 100, block: 4 }): Promise<void> {
  const args = [options.warmup, options.rounds, options.block].map(String);
  // SAFETY: timed-rounds.ts prints exactly a `TimedRounds` as its last line.
  const timed = (await runBundled("timed-rounds.ts", args)) as TimedRounds;
  const memory = await runBundled("memory-run.ts");
  const alone = await runBundled("alone-run.ts");
  const read = (key: string) => field(memory, key);

  const at = (size: number, bounded: boolean) =>
    timed.cases.find((c) => c.size === size && c.bounded === bounded)?.times ?? [];
  console.log(
    `\nIn-process turns: the real Runner, the in-memory store, zero-latency AI SDK models; a root that` +
      ` transferred once and a specialist that answers; bundled by esbuild and run by plain Node. Each case` +
      ` first runs up to 1,000 untimed turns (400 ms at most), then ${timed.rounds} rounds after ${timed.warmup} of warm-up, each a block of ${timed.block} turns per case in a shuffled order;` +
      ` a session is replaced once it grew by 10 events or 4%, so "10 events" is 10–18.`,
  );
  console.log("  events   history            median        p99      vs 10 events (median of paired ratios)");
  for (const c of timed.cases) {
    const label = c.bounded ? `bounded to ${HISTORY_BOUND}` : "unbounded";
    const vs = pairedRatio(c.times, at(10, c.bounded));
    console.log(
      `  ${c.size.toLocaleString("en").padStart(6)}   ${label.padEnd(16)} ${us(median(c.times)).padStart(10)} ${us(percentile(c.times, 99)).padStart(10)}   ${vs.toFixed(2)}×`,
    );
  }
  const small = median(at(10, false));
  const refMedian = median(timed.reference);
  const verdict = (r: number, target: number, unit = "×") =>
    `${r.toFixed(unit === "×" ? 2 : 1)}${unit}  target ≤ ${target}${unit}  ${r <= target ? "met" : "NOT met"}`;
  const own = (key: string) => field(alone, key);
  console.log(
    `  10-event turn, unbounded, in a process of 10-event turns only (4,000 timed after 2,000): median` +
      ` ${verdict(own("median"), 70, " µs")}; p99 ${us(own("p99"))}; ${(own("median") / own("reference")).toFixed(1)}×` +
      ` the reference timed after each turn (${us(own("reference"))})`,
  );
  console.log(
    `  the same turn in the rounds above: median ${us(small)}, ${(small / refMedian).toFixed(1)}× the same-run` +
      ` reference (a JSON round trip of the 10-event session: ${us(refMedian)}); those rounds also hold 1,000- and` +
      ` 10,000-event sessions, whose garbage collection runs beside it on this machine's other core`,
  );
  console.log(
    `  10,000 vs 10 events, unbounded:   ${verdict(pairedRatio(at(10_000, false), at(10, false)), 100)}`,
  );
  console.log(
    `  10,000 vs 10 events, bounded:     ${verdict(pairedRatio(at(10_000, true), at(10, true)), 1.5)}`,
  );
  console.log(
    `  that process's first 2,000 turns: ${own("turnsPerSecond")} turns/s; RSS ${own("rssBefore")} →` +
      ` ${verdict(own("rssAfter"), 80, " MiB")}; heap ${own("heapBefore")} → ${own("heapAfter")} MiB`,
  );
  console.log(
    `  2,000 turns over 20 sessions that grow (10 → 210 events, unbounded, all kept), a fresh process:` +
      ` ${read("turnsPerSecond")} turns/s; RSS ${read("rssBefore")} → ${read("rssAfter")} MiB; heap` +
      ` ${read("heapBefore")} → ${read("heapAfter")} MiB (${read("heapAfterGc")} MiB after a GC)`,
  );
}
