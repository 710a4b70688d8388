/**
 * The HTTP benchmarks: Baton's Worker under `wrangler dev`, driven over 127.0.0.1 against a zero-latency
 * fake model, so what is measured is Baton's own cost per turn. Prints ratios only as verdicts.
 */
import { BenchClient } from "./client.js";
import { startFakeModel } from "./fake-model.js";
import { latencyBench } from "./latency.js";
import { pairedFigure, pairedHeader } from "./paired-figures.js";
import { startBenchWorker } from "./start-worker.js";
import { throughputBench } from "./throughput.js";

/**
 * The rounds of (a) and (s), each about 45 s here; a long warm-up, as Baton's larger code takes longer to
 * reach steady JIT.
 */
const PAIRED = { warmup: 10, rounds: 120, block: 8 };

/**
 * Starts the fake model and the Worker, runs (a), (s) and (s′), then (b) and (c) (or `only` (a), or (s)
 * with (s′), `npm run bench -- http a [runs]`, `runs` times back to back), and stops both whatever happens.
 */
export async function httpBench(options: { only?: "a" | "s"; runs?: number } = {}): Promise<void> {
  const fake = await startFakeModel();
  try {
    const worker = await startBenchWorker(fake.baseUrl);
    const client = new BenchClient(worker.origin);
    try {
      pairedHeader(PAIRED);
      const { only } = options;
      if (only) {
        for (let run = 0; run < (options.runs ?? 1); run++) {
          await pairedFigure(client, only, PAIRED, `${only}${run}`);
          if (only === "s") await pairedFigure(client, "s-streamed", PAIRED, `s-streamed${run}`);
        }
        return;
      }
      await pairedFigure(client, "a", PAIRED);
      await pairedFigure(client, "s", PAIRED);
      await pairedFigure(client, "s-streamed", PAIRED);
      await latencyBench(client, fake, { fast: { warmup: 5, rounds: 40 }, slow: { warmup: 2, rounds: 15 } });
      await throughputBench(client, { sessions: 100, turnsPerSession: 3, sequentialTurns: 30, rounds: 3 });
      if (client.resent > 0)
        console.log(
          `  ${client.resent} turns were sent again after wrangler dev's proxy dropped their first send`,
        );
    } finally {
      client.close();
      await worker.dispose();
    }
  } finally {
    await fake.close();
  }
}
