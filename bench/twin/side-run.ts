/**
 * One side of the twin, run in its own process from a bundle of `adk-entry.ts` or `baton-entry.ts`
 * (`twin-bench.ts` builds them): the same phases as the ADK anchor in `../shared/bench-anchors`, written
 * anew. Prints one JSON line.
 * (a) 300 warm-up turns, then 2,000 turns round-robin over 100 sessions, one at a time; RSS after.
 * (b) one sticky turn on sessions of 10 and 10,000 events (built from two real turns plus appended pairs),
 * 50 samples per size, each built session reused while its history grows by at most 1%.
 */
import { performance } from "node:perf_hooks";
import { AGENTS, EXPECTED, type TwinSide } from "./scenario.js";

const SIZES = [10, 10_000];
const SAMPLES = 50;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

export async function runSide(which: "adk" | "baton", side: TwinSide): Promise<void> {
  let wrongTurns = 0;
  /** One timed turn (µs); counts a turn whose model calls are not the scenario's. */
  const timedTurn = async (sessionId: string, i: number, first: boolean, bounded = false) => {
    const before = { ...side.calls };
    const started = performance.now();
    await side.turn(sessionId, i, bounded);
    const us = (performance.now() - started) * 1000;
    const expected = first ? EXPECTED.first : EXPECTED.later;
    if (AGENTS.some((a) => side.calls[a] - before[a] !== expected[a])) wrongTurns++;
    return us;
  };

  for (let s = 0; s < 15; s++) {
    await side.createSession(`warm-${s}`);
    for (let t = 0; t < 20; t++) await timedTurn(`warm-${s}`, t, t === 0);
    await side.deleteSession(`warm-${s}`);
  }
  gc();

  const turnsUs: number[] = [];
  const done = new Array<number>(100).fill(0);
  for (let s = 0; s < 100; s++) await side.createSession(`a-${s}`);
  for (let i = 0; i < 2_000; i++) {
    const s = i % 100;
    const n = done[s] ?? 0;
    turnsUs.push(await timedTurn(`a-${s}`, n, n === 0));
    done[s] = n + 1;
  }
  const rssAfterTurnsMiB = process.memoryUsage().rss / 1_048_576;
  for (let s = 0; s < 100; s++) await side.deleteSession(`a-${s}`);
  gc();

  /** Median of one sticky turn at each size (`bounded`: with the 50-event bound). */
  const historyPhase = async (bounded: boolean) => {
    const medians: Record<number, number> = {};
    let built = 0;
    const build = async (size: number) => {
      const id = `h-${bounded}-${size}-${built++}`;
      await side.createSession(id);
      await side.turn(id, 0);
      await side.turn(id, 1);
      await side.appendPairs(id, Math.max(0, Math.round((size - (await side.eventCount(id))) / 2)));
      return id;
    };
    for (const size of SIZES) {
      const perSession = Math.max(1, Math.floor((0.01 * size) / 2));
      const warm = await build(size);
      await timedTurn(warm, 900_000, false, bounded);
      await timedTurn(warm, 900_001, false, bounded);
      await side.deleteSession(warm);
      gc();
      const samples: number[] = [];
      while (samples.length < SAMPLES) {
        const id = await build(size);
        for (let j = 0; j < perSession && samples.length < SAMPLES; j++)
          samples.push(await timedTurn(id, 1_000_000 + samples.length, false, bounded));
        await side.deleteSession(id);
      }
      medians[size] = median(samples);
      gc();
    }
    return medians;
  };

  const history = await historyPhase(false);
  const bounded = side.hasBound ? await historyPhase(true) : null;
  process.stdout.write(
    `${JSON.stringify({ side: which, turnMedianUs: median(turnsUs), rssAfterTurnsMiB, history, bounded, wrongTurns })}\n`,
  );
}
