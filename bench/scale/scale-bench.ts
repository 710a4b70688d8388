/**
 * `npm run bench -- scale [small]`: Baton's Worker under `wrangler dev` grown the way production grows
 * (decision 046): 10,000 sessions of one user and 1,000 users, a session of 100,000 events, 200 sessions
 * taking turns at once against the zero-latency fake model. Prints rates, latencies (p50/p99) as ratios
 * where there is a baseline, the largest answer body and workerd's memory, and fails on any 5xx.
 * `small` grows a tenth of each, for a quick look.
 */
import { BOUNDED_APP } from "../http/bench-env.js";
import { FAKE_ANSWER, startFakeModel } from "../http/fake-model.js";
import { ms, percentile, verdict } from "../http/rounds.js";
import { startBenchWorker } from "../http/start-worker.js";
import { listingBench } from "./listings.js";
import { longSessionBench } from "./long-session.js";
import { inPool, ScaleClient, workerdRssMiB } from "./scale-client.js";

const FULL = { sessions: 10_000, users: 1_000, events: 100_000, concurrent: 200 };

/** `concurrent` sessions of their own users, each taking `rounds` turns, all at once each round. */
async function turnsBench(client: ScaleClient, concurrent: number, rounds: number): Promise<void> {
  const sessions = Array.from({ length: concurrent }, (_, i) => ({
    userId: `turns-${i}`,
    sessionId: `t${i}`,
  }));
  await inPool(concurrent, 16, async (i) => {
    const { userId, sessionId } = sessions[i] ?? { userId: "", sessionId: "" };
    await client.send(
      "POST",
      `/apps/${BOUNDED_APP}/users/${userId}/sessions`,
      { sessionId },
      (a) => a.status === 409,
    );
  });
  const turn = async (i: number) => {
    const { userId, sessionId } = sessions[i] ?? { userId: "", sessionId: "" };
    const newMessage = { role: "user", parts: [{ text: "What is the status of my order?" }] };
    const answer = await client.send("POST", "/run", { appName: BOUNDED_APP, userId, sessionId, newMessage });
    if (answer.status !== 200 || !answer.text.includes(FAKE_ANSWER))
      throw new Error(`turn ${sessionId}: ${answer.status} ${answer.text.slice(0, 200)}`);
    return answer.ms;
  };
  await Promise.all(sessions.map((_, i) => turn(i)));
  const latencies: number[] = [];
  const rates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const t0 = performance.now();
    latencies.push(...(await Promise.all(sessions.map((_, i) => turn(i)))));
    rates.push(concurrent / ((performance.now() - t0) / 1000));
  }
  const sorted = [...rates].sort((a, b) => a - b);
  console.log(
    `  ${concurrent} sessions taking turns at once: ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(0)} turns/s` +
      ` (median of ${rounds} rounds), a turn p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}`,
  );
}

/** The bench's reads and turns once more, on what it grew: every page of the big listing, reads, turns. */
async function repeatedWork(client: ScaleClient, sizes: typeof FULL): Promise<void> {
  let token: string | undefined;
  do {
    const query = `?pageSize=100${token ? `&pageToken=${token}` : ""}`;
    const { answer } = await client.json<unknown[]>(`/apps/${BOUNDED_APP}/users/many/sessions${query}`);
    const next = answer.headers["next-page-token"];
    token = typeof next === "string" ? next : undefined;
  } while (token);
  for (let i = 0; i < 100; i++)
    await client.json(`/apps/${BOUNDED_APP}/users/long/sessions/short?numRecentEvents=100`);
  await turnsBench(client, sizes.concurrent, 1);
}

export async function scaleBench(size: "full" | "small" = "full"): Promise<void> {
  const sizes =
    size === "full"
      ? FULL
      : { sessions: FULL.sessions / 10, users: FULL.users / 10, events: FULL.events / 10, concurrent: 20 };
  const fake = await startFakeModel();
  try {
    const worker = await startBenchWorker(fake.baseUrl);
    const client = new ScaleClient(worker.origin);
    const t0 = performance.now();
    try {
      // Warm: the first requests compile the Worker and open the objects' code.
      for (let i = 0; i < 5; i++) await client.send("GET", `/apps/${BOUNDED_APP}/users/warm/sessions`);
      const before = workerdRssMiB();
      console.log(`scale bench (${size}): workerd RSS before ${before.toFixed(0)} MiB`);
      await listingBench(client, sizes);
      await longSessionBench(client, sizes.events);
      await turnsBench(client, sizes.concurrent, 3);
      const after = workerdRssMiB();
      // workerd evicts an idle object after 10 s; what it took from the system it keeps (its high-water mark).
      await new Promise((resolve) => setTimeout(resolve, 15_000));
      const settled = workerdRssMiB();
      const largest = `${(client.largest.bytes / 2 ** 20).toFixed(2)} MiB (${client.largest.what})`;
      console.log(
        `  workerd RSS after ${after.toFixed(0)} MiB, ${settled.toFixed(0)} MiB 15 s later: ` +
          `${(settled / before).toFixed(2)}× ${verdict(settled / before, 1.5)} (target ≤ 1.5×); the largest answer ${largest}`,
      );
      // The same reads and turns again, over the objects that now exist: what they cost in memory.
      await repeatedWork(client, sizes);
      const again = workerdRssMiB();
      console.log(
        `  workerd RSS after the listings, reads and turns again: ${(again / settled).toFixed(2)}× of it before them`,
      );
      console.log(
        `  ${client.errors.length} 5xx ${verdict(client.errors.length, 0)} (target 0);` +
          ` ${client.drops} sends dropped by wrangler dev's proxy and sent again; ${ms(performance.now() - t0)} in all`,
      );
    } finally {
      client.close();
      await worker.dispose();
    }
    if (client.errors.length > 0) throw new Error(`5xx answers:\n${client.errors.slice(0, 20).join("\n")}`);
  } finally {
    await fake.close();
  }
}
