/**
 * Figure (a): Baton's `POST /run` against the hand-written baseline on 10-event sessions, in rounds of its
 * own (`pairedRounds`): the one HTTP figure with a tight target, so it gets the most turns and a spread.
 */
import { BOUNDED_APP } from "./bench-env.js";
import type { BenchClient } from "./client.js";
import { type PairedOptions, pairedRounds } from "./paired.js";
import { ms, roundRobin, verdict } from "./rounds.js";
import { POOL, SMALL, sessions } from "./sessions.js";
import { workerdCpu } from "./worker-cpu.js";

/** Issue 12's target for (a). */
const TARGET = 1.1;

/** Runs (a) on fresh sessions (`tag` keeps their ids apart from other runs') and prints it with its spread. */
export async function figureA(
  client: BenchClient,
  options: Omit<PairedOptions, "cpu">,
  tag = "a",
): Promise<void> {
  const baton = roundRobin(await sessions(client, BOUNDED_APP, `${tag}-pair-baton`, SMALL, POOL));
  const base = roundRobin(await sessions(client, BOUNDED_APP, `${tag}-pair-base`, SMALL, POOL));
  const a = await pairedRounds(
    () => client.batonTurn(baton()),
    () => client.baselineTurn(base()),
    { ...options, cpu: workerdCpu() },
  );
  console.log(
    `\nHTTP turns through wrangler dev against a zero-latency fake model. (a): ${options.rounds} rounds of` +
      ` ${options.block}+${options.block} turns a side (ABBA), ratio = median of the rounds' ratios of median` +
      ` times, [interquartile range of those ratios].`,
  );
  const spread = `[${a.q1.toFixed(2)}–${a.q3.toFixed(2)}]`;
  // Three decimals: at two, a ratio just over the target would print as the target and MISS.
  console.log(
    `  ${"(a) Baton /run vs baseline, 10-event sessions".padEnd(58)} ${`${a.ratio.toFixed(3)}×`.padStart(8)}` +
      `   (${ms(a.aMs)} vs ${ms(a.bMs)}; ${a.turns} turns a side) ${spread}` +
      `   target ≤ ${TARGET}×  ${verdict(a.ratio, TARGET)}`,
  );
  if (a.cpu)
    console.log(
      `      workerd CPU per turn in (a): ${ms(a.cpu.aMs)} vs ${ms(a.cpu.bMs)},` +
        ` ${(a.cpu.aMs / a.cpu.bMs).toFixed(2)}× (the Worker, its objects and wrangler's proxy)`,
    );
}
