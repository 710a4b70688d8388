/**
 * (c) Turns per second with 100 sessions of 100 users in parallel (each session one turn at a time) against one
 * session's turns in sequence; the baseline in parallel is shown for context. The runs alternate over a
 * few rounds; the parallel latencies are pooled for p50/p99.
 */
import { median } from "../timing.js";
import { BOUNDED_APP } from "./bench-env.js";
import type { BenchClient, BenchSession } from "./client.js";
import { ms, percentile } from "./rounds.js";

export interface ThroughputOptions {
  sessions: number;
  /** Turns each parallel session runs per round, one after another. */
  turnsPerSession: number;
  /** Turns the single session runs per round. */
  sequentialTurns: number;
  rounds: number;
}

type Turn = (session: BenchSession) => Promise<number>;

/** Runs `turns` turns on `session`, one after another; returns their latencies. */
async function inSequence(turn: Turn, session: BenchSession, turns: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < turns; i++) latencies.push(await turn(session));
  return latencies;
}

/** Turns per second and the latencies of all `sessions` running `turns` turns each, at once. */
async function inParallel(turn: Turn, sessions: BenchSession[], turns: number) {
  const t0 = performance.now();
  const latencies = (await Promise.all(sessions.map((s) => inSequence(turn, s, turns)))).flat();
  return { perSecond: latencies.length / ((performance.now() - t0) / 1000), latencies };
}

/**
 * `count` fresh 10-event sessions, each of its own user as real traffic would be, made a few at a time:
 * a hundred creations at once queue for seconds under wrangler dev and can drop its proxy's connection.
 */
async function fresh(client: BenchClient, prefix: string, count: number): Promise<BenchSession[]> {
  const made: BenchSession[] = [];
  for (let from = 0; from < count; from += 10) {
    const batch = Array.from({ length: Math.min(10, count - from) }, (_, k) => {
      const session = {
        appName: BOUNDED_APP,
        userId: `${prefix}-user-${from + k}`,
        sessionId: `${prefix}-${from + k}`,
      };
      return client.createSession(session, 10);
    });
    made.push(...(await Promise.all(batch)));
  }
  return made;
}

/** Builds fresh 10-event sessions, alternates the sequential and parallel runs, and prints (c). */
export async function throughputBench(client: BenchClient, options: ThroughputOptions): Promise<void> {
  const baton: Turn = (s) => client.batonTurn(s);
  const baseline: Turn = (s) => client.baselineTurn(s);
  const [single] = await fresh(client, "c-single", 1);
  const many = await fresh(client, "c-baton", options.sessions);
  const manyBase = await fresh(client, "c-base", options.sessions);
  if (!single) throw new Error("the single session was not made");
  // Warm-up, unmeasured: a few turns in sequence and one turn per parallel session.
  await inSequence(baton, single, 5);
  await inParallel(baton, many, 1);
  await inParallel(baseline, manyBase, 1);

  const sequential: number[] = [];
  const parallel: number[] = [];
  const parallelBase: number[] = [];
  const latencies: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const t0 = performance.now();
    await inSequence(baton, single, options.sequentialTurns);
    sequential.push(options.sequentialTurns / ((performance.now() - t0) / 1000));
    const run = await inParallel(baton, many, options.turnsPerSession);
    parallel.push(run.perSecond);
    latencies.push(...run.latencies);
    parallelBase.push((await inParallel(baseline, manyBase, options.turnsPerSession)).perSecond);
  }
  const [par, seq, base] = [median(parallel), median(sequential), median(parallelBase)];
  const n = options.sessions;
  // Under wrangler dev the Worker and every Durable Object share one workerd thread: CPU per turn bounds this.
  console.log(
    `  (c) ${n} sessions in parallel vs one in sequence: ${(par / seq).toFixed(2)}× the turns/s` +
      ` (${par.toFixed(0)} vs ${seq.toFixed(0)} turns/s; medians of ${options.rounds} alternating rounds; no target)`,
  );
  console.log(
    `      parallel turn latency p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}` +
      ` over ${latencies.length} turns; the baseline in parallel: ${base.toFixed(0)} turns/s` +
      ` (Baton ${(par / base).toFixed(2)}× of it)`,
  );
}
