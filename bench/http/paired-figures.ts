/**
 * The paired HTTP figures: Baton's turn against the hand-written baseline on 10-event sessions, each in
 * rounds of its own (`pairedRounds`), as the figures with tight targets get the most turns and a spread.
 * (a) is `POST /run`; (s) is the same turn streamed (`POST /run_sse`, `streaming: true`), whose partial
 * event comes from the model's streamed answer, against the same unstreamed baseline. (s′) is that turn
 * against the baseline streamed too (`/baseline/run_sse`): what Baton costs a streamed turn over the same
 * streaming done by hand, apart from what streaming itself costs.
 */
import { BOUNDED_APP } from "./bench-env.js";
import type { BenchClient } from "./client.js";
import { type PairedOptions, pairedRounds } from "./paired.js";
import { ms, roundRobin, verdict } from "./rounds.js";
import { POOL, SMALL, sessions } from "./sessions.js";
import { workerdCpu } from "./worker-cpu.js";

/** Issue 29's targets: (a) ≤ 1.05× (issue 12's was 1.1×), (s) ≤ 1.1×; (s′) has none of its own. */
const TARGETS: Record<keyof typeof LABELS, number | undefined> = { a: 1.05, s: 1.1, "s-streamed": undefined };

const LABELS = {
  a: "(a) Baton /run vs baseline, 10-event sessions",
  s: "(s) Baton /run_sse streamed vs baseline, 10-event sessions",
  "s-streamed": "(s′) the same vs the baseline streamed too",
};

/** How the CPU line names each figure. */
const SHORT = { a: "(a)", s: "(s)", "s-streamed": "(s′)" };

/** Prints how the paired figures are measured, once before the first. */
export function pairedHeader(options: Omit<PairedOptions, "cpu">): void {
  console.log(
    `\nHTTP turns through wrangler dev against a zero-latency fake model. (a) and (s): ${options.rounds}` +
      ` rounds of ${options.block}+${options.block} turns a side (ABBA), ratio = median of the rounds' ratios` +
      " of median times, [interquartile range of those ratios].",
  );
}

/**
 * Runs figure (a) or (s) on fresh sessions (`tag` keeps their ids apart from other runs') and prints it
 * with its spread and workerd's CPU per turn.
 */
export async function pairedFigure(
  client: BenchClient,
  figure: keyof typeof LABELS,
  options: Omit<PairedOptions, "cpu">,
  tag: string = figure,
): Promise<void> {
  const baton = roundRobin(await sessions(client, BOUNDED_APP, `${tag}-pair-baton`, SMALL, POOL));
  const base = roundRobin(await sessions(client, BOUNDED_APP, `${tag}-pair-base`, SMALL, POOL));
  const turn = figure === "a" ? () => client.batonTurn(baton()) : () => client.batonSseTurn(baton());
  const baseline =
    figure === "s-streamed" ? () => client.baselineSseTurn(base()) : () => client.baselineTurn(base());
  const result = await pairedRounds(turn, baseline, {
    ...options,
    cpu: workerdCpu(),
  });
  const target = TARGETS[figure];
  const spread = `[${result.q1.toFixed(2)}–${result.q3.toFixed(2)}]`;
  // Three decimals: at two, a ratio just over the target would print as the target and MISS.
  console.log(
    `  ${LABELS[figure].padEnd(58)} ${`${result.ratio.toFixed(3)}×`.padStart(8)}` +
      `   (${ms(result.aMs)} vs ${ms(result.bMs)}; ${result.turns} turns a side) ${spread}` +
      (target === undefined ? "" : `   target ≤ ${target}×  ${verdict(result.ratio, target)}`),
  );
  if (result.cpu)
    console.log(
      `      workerd CPU per turn in ${SHORT[figure]}: ${ms(result.cpu.aMs)} vs ${ms(result.cpu.bMs)},` +
        ` ${(result.cpu.aMs / result.cpu.bMs).toFixed(2)}× (the Worker, its objects and wrangler's proxy)`,
    );
}
