/**
 * One side of the workflow twin bench, in its own process (`workflow-bench.ts` bundles and starts it): the
 * "fan-out + join" scenario (two agent nodes on branches of their own, a join, a function) on sessions that
 * grow as real ones do: 200 warm-up turns, then 2,000 turns round-robin over 100 sessions, one at a time.
 * Prints one JSON line: the per-turn median, RSS after the turns, and the turns whose output was not the
 * scenario's.
 */
import { performance } from "node:perf_hooks";

export interface WorkflowSide {
  createSession(sessionId: string): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  /** One turn, drained; the workflow's last output. */
  turn(sessionId: string, i: number): Promise<unknown>;
}

export const EXPECTED_OUTPUT = 'weighed {"pro":"Yes: it is cheap.","con":"No: it is slow."}';
export const message = (i: number) => `Should we ship it? (msg ${i})`;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

export async function runWorkflowSide(which: "adk" | "baton", side: WorkflowSide): Promise<void> {
  let wrongTurns = 0;
  const timed = async (sessionId: string, i: number) => {
    const started = performance.now();
    const output = await side.turn(sessionId, i);
    const us = (performance.now() - started) * 1000;
    if (output !== EXPECTED_OUTPUT) wrongTurns++;
    return us;
  };
  for (let s = 0; s < 10; s++) {
    await side.createSession(`warm-${s}`);
    for (let t = 0; t < 20; t++) await timed(`warm-${s}`, t);
    await side.deleteSession(`warm-${s}`);
  }
  gc();
  const turnsUs: number[] = [];
  for (let s = 0; s < 100; s++) await side.createSession(`w-${s}`);
  for (let i = 0; i < 2_000; i++) turnsUs.push(await timed(`w-${i % 100}`, i));
  const rssAfterTurnsMiB = process.memoryUsage().rss / 1_048_576;
  process.stdout.write(
    `${JSON.stringify({ side: which, turnMedianUs: median(turnsUs), rssAfterTurnsMiB, wrongTurns })}\n`,
  );
}
