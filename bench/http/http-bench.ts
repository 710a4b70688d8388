/**
 * The HTTP benchmarks: Baton's Worker under `wrangler dev`, driven over 127.0.0.1 against a zero-latency
 * fake model, so what is measured is Baton's own cost per turn. Prints ratios only as verdicts.
 */
import { BenchClient } from "./client.js";
import { startFakeModel } from "./fake-model.js";
import { latencyBench } from "./latency.js";
import { startBenchWorker } from "./start-worker.js";
import { throughputBench } from "./throughput.js";

/** Starts the fake model and the Worker, runs (a)–(c), and stops both whatever happens. */
export async function httpBench(): Promise<void> {
  const fake = await startFakeModel();
  try {
    const worker = await startBenchWorker(fake.baseUrl);
    const client = new BenchClient(worker.origin);
    try {
      await latencyBench(client, fake, {
        pair: { warmup: 3, rounds: 80, block: 8 },
        fast: { warmup: 5, rounds: 40 },
        slow: { warmup: 2, rounds: 15 },
      });
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
