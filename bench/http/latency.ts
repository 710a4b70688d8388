/**
 * (a) and (s), Baton's turn and streamed turn against the hand-written baseline (again, beside their own
 * paired rounds in `paired-figures.ts`), and (b) a 10,000-event session against a 10-event one, with the
 * history bound on and off. Compared cases run in the same interleaved rounds.
 */
import { BARE_APP, BOUNDED_APP, HISTORY_BOUND, UNBOUNDED_APP } from "./bench-env.js";
import type { BenchClient, BenchSession } from "./client.js";
import type { FakeModel } from "./fake-model.js";
import { interleaved, ms, pairedRatio, roundRobin, verdict } from "./rounds.js";
import { POOL, SMALL, sessions } from "./sessions.js";

const LARGE = 10_000;

export interface LatencyOptions {
  /** Rounds of the fast cases (every turn reads at most 50 events). */
  fast: { warmup: number; rounds: number };
  /** Rounds of the unbounded pair, whose 10,000-event turn is slow. */
  slow: { warmup: number; rounds: number };
}

/** One turn each side by side, to show Baton and the baseline send model request bodies of a like size. */
async function bodySizes(
  client: BenchClient,
  fake: FakeModel,
  pairs: [string, BenchSession, BenchSession][],
) {
  const sizes: string[] = [];
  for (const [label, baton, baseline] of pairs) {
    await client.batonTurn(baton);
    await client.baselineTurn(baseline);
    const [b, base] = [fake.lastBodyBytes.get("bench"), fake.lastBodyBytes.get("bench-baseline")];
    sizes.push(`${label}: Baton ${b} B, baseline ${base} B`);
  }
  return sizes.join("; ");
}

/** Builds the sessions (10 and 10,000 events), runs the interleaved rounds and prints (a) and (b). */
export async function latencyBench(
  client: BenchClient,
  fake: FakeModel,
  options: LatencyOptions,
): Promise<void> {
  const batonSmall = await sessions(client, BOUNDED_APP, "a-baton", SMALL, POOL);
  const baseSmall = await sessions(client, BOUNDED_APP, "a-base", SMALL, POOL);
  const sseSmall = await sessions(client, BOUNDED_APP, "a-sse", SMALL, POOL);
  const bareSmall = await sessions(client, BARE_APP, "a-bare", SMALL, POOL);
  const bareSseSmall = await sessions(client, BARE_APP, "a-bare-sse", SMALL, POOL);
  const [batonLarge, baseLarge] = await sessions(client, BOUNDED_APP, "a-large", LARGE, 2);
  const unboundedSmall = await sessions(client, UNBOUNDED_APP, "b-small", SMALL, POOL);
  const [unboundedLarge] = await sessions(client, UNBOUNDED_APP, "b-large", LARGE, 1);
  if (!batonLarge || !baseLarge || !unboundedLarge) throw new Error("large sessions were not made");
  const [batonFirst, baseFirst] = [batonSmall[0], baseSmall[0]];
  if (!batonFirst || !baseFirst) throw new Error("small sessions were not made");
  const bodies = await bodySizes(client, fake, [
    ["10 events", batonFirst, baseFirst],
    ["10,000 events", batonLarge, baseLarge],
  ]);

  const pick = {
    batonSmall: roundRobin(batonSmall),
    sseSmall: roundRobin(sseSmall),
    bareSmall: roundRobin(bareSmall),
    bareSseSmall: roundRobin(bareSseSmall),
    baseSmall: roundRobin(baseSmall),
    unboundedSmall: roundRobin(unboundedSmall),
  };
  // The fast cases, many rounds: the streamed turn and the bounded half of (b), with a baseline to compare.
  const [batonS, baseS, batonL, baseL, sseS, bareS, bareSseS] = await interleaved(
    [
      { label: "Baton, bounded, 10", turn: () => client.batonTurn(pick.batonSmall()) },
      { label: "baseline, bounded, 10", turn: () => client.baselineTurn(pick.baseSmall()) },
      { label: "Baton, bounded, 10k", turn: () => client.batonTurn(batonLarge) },
      { label: "baseline, bounded, 10k", turn: () => client.baselineTurn(baseLarge) },
      { label: "Baton streamed, bounded, 10", turn: () => client.batonSseTurn(pick.sseSmall()) },
      { label: "Baton on the bare model, bounded, 10", turn: () => client.batonTurn(pick.bareSmall()) },
      {
        label: "Baton streamed on the bare model, bounded, 10",
        turn: () => client.batonSseTurn(pick.bareSseSmall()),
      },
    ],
    options.fast,
  );
  // The unbounded half of (b): a 10,000-event turn takes a good part of a second, so fewer rounds.
  const [unboundedS, unboundedL] = await interleaved(
    [
      { label: "Baton, unbounded, 10", turn: () => client.batonTurn(pick.unboundedSmall()) },
      { label: "Baton, unbounded, 10k", turn: () => client.batonTurn(unboundedLarge) },
    ],
    options.slow,
  );
  if (!batonS || !baseS || !batonL || !baseL || !sseS || !bareS || !bareSseS || !unboundedS || !unboundedL)
    throw new Error("a case was not measured");
  const row = (label: string, a: number[], b: number[], target?: number) => {
    const r = pairedRatio(a, b);
    const verdictText = target === undefined ? "" : `   target ≤ ${target}×  ${verdict(r, target)}`;
    return `  ${label.padEnd(58)} ${`${r.toFixed(2)}×`.padStart(8)}   (${ms(a)} vs ${ms(b)})${verdictText}`;
  };

  const { fast, slow } = options;
  console.log(
    `  The rest: median of per-round ratios over ${fast.rounds} interleaved rounds (${slow.rounds} for the` +
      ` unbounded pair), after warm-up; ms = medians. "10 events" grows over the run.`,
  );
  // Targets: the unbounded pair ≤ 5× is issue 12's; (b) bounded ≤ 3× is the bench's first.
  console.log(row("    (a) in these mixed rounds, for comparison", batonS, baseS));
  console.log(row("    the same streamed (/run_sse), 10-event sessions", sseS, baseS));
  // What the AI SDK's client costs: the same turn on a hand-written chat-completions model (`bare-model.ts`).
  console.log(row("    the same on the bare model (no AI SDK client)", bareS, baseS));
  console.log(row("    the same streamed (/run_sse) on the bare model", bareSseS, baseS));
  console.log(row(`    the same on 10,000-event sessions (both read ${HISTORY_BOUND})`, batonL, baseL));
  console.log(row(`(b) 10,000 vs 10 events, history bounded to ${HISTORY_BOUND}`, batonL, batonS, 3));
  console.log(row("    10,000 vs 10 events, bound off (unbounded)", unboundedL, unboundedS, 5));
  console.log(`  model request bodies — ${bodies}`);
}
