/**
 * Webhook accepts under `wrangler dev`: the demo Worker takes signed GitHub-style deliveries over
 * 127.0.0.1, 5% of them repeats of earlier ones. Two phases in one run: accept-only (no queue consumer,
 * `bench/webhooks/wrangler.toml`), then as configured (root wrangler.toml: the consumer runs the turns on
 * the same workerd thread meanwhile). Each phase first sends a warm-up that creates the turn shards, then
 * prints accepted deliveries per second and the accept latency (p50, p99) of the measured deliveries, then
 * how many of a sample of the queued turns the consumer finished within a bounded wait.
 */
import { createHmac, randomUUID } from "node:crypto";
import { percentile } from "../http/rounds.js";
import { startBenchWorker } from "../http/start-worker.js";

const SECRET = "bench-github-webhook-secret";
const DELIVERIES = 600;
/**
 * Deliveries sent first, 16 at a time, and not counted: enough that each of the 32 turn shards has been
 * created (the chance one of them is still missing after 256 is ~1 in 10,000). Miniflare takes tens of
 * milliseconds to create an object, once; a deployment's shards exist after its first deliveries.
 */
const WARMUP = 256;
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 16);
const DUPLICATE_SHARE = 0.05;
const SAMPLE = 20;
const DONE_WAIT_MS = 15_000;

interface Delivery {
  id: string;
  body: string;
  signature: string;
  duplicate: boolean;
}

/**
 * New deliveries, each a fresh issue (so no two turns share a session), with resends mixed in: every
 * twentieth delivery (5% exactly) repeats a random earlier one.
 */
function plan(count: number): Delivery[] {
  const run = randomUUID().slice(0, 8);
  const fresh: Delivery[] = [];
  const all: Delivery[] = [];
  for (let i = 0; i < count; i++) {
    const earlier = fresh[Math.floor(Math.random() * fresh.length)];
    if (earlier && (i + 1) % Math.round(1 / DUPLICATE_SHARE) === 0) {
      all.push({ ...earlier, duplicate: true });
      continue;
    }
    const body = JSON.stringify({
      action: "created",
      issue: { number: i, title: `bench ${run}`, body: null, user: { login: "bench" } },
      comment: { id: i, body: `What's the weather in Lisbon? (${run}-${i})`, user: { login: "bench" } },
      repository: { full_name: `bench/${run}` },
      sender: { login: "bench" },
    });
    const signature = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;
    const delivery = { id: `${run}-${i}`, body, signature, duplicate: false };
    fresh.push(delivery);
    all.push(delivery);
  }
  return all;
}

export async function webhookBench(): Promise<void> {
  console.log("\nWebhook accepts on wrangler dev (demo app, GitHub signatures, 5% repeats)");
  await phase("accept only (no consumer)", "bench/webhooks/wrangler.toml", false);
  await phase("with the TURNS consumer running", "wrangler.toml", true);
}

async function phase(label: string, config: string, consumer: boolean): Promise<void> {
  const worker = await startBenchWorker("http://127.0.0.1:9/unused", {
    config,
    vars: { GITHUB_WEBHOOK_SECRET: SECRET },
  });
  try {
    const post = async (d: Delivery) => {
      const started = performance.now();
      const res = await fetch(`${worker.origin}/webhooks/demo/github`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "issue_comment",
          "x-github-delivery": d.id,
          "x-hub-signature-256": d.signature,
        },
        body: d.body,
      });
      const json = res.status === 202 || res.status === 200 ? await res.json() : await res.text();
      return {
        status: res.status,
        ms: performance.now() - started,
        turnId: (json as { turnId?: string }).turnId,
      };
    };
    /** Posts `deliveries`, `CONCURRENCY` at a time; their answers in the order they came. */
    const postAll = async (deliveries: Delivery[]) => {
      const results: Awaited<ReturnType<typeof post>>[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < deliveries.length; i = next++) {
            const d = deliveries[i];
            if (d) results.push(await post(d));
          }
        }),
      );
      return results;
    };
    const warmupStarted = performance.now();
    await postAll(plan(WARMUP).map((d) => ({ ...d, id: `warmup-${d.id}` })));
    const warmupSeconds = (performance.now() - warmupStarted) / 1000;
    const deliveries = plan(DELIVERIES);
    const started = performance.now();
    const results = await postAll(deliveries);
    const seconds = (performance.now() - started) / 1000;
    const count = (status: number) => results.filter((r) => r.status === status).length;
    const unique = deliveries.filter((d) => !d.duplicate).length;
    const latencies = results.map((r) => r.ms);
    console.log(`- ${label}`);
    console.log(
      `  warm-up: ${WARMUP} deliveries in ${warmupSeconds.toFixed(2)} s (${(WARMUP / warmupSeconds).toFixed(0)}/s, the turn shards created meanwhile)`,
    );
    console.log(
      `  ${results.length} deliveries (${deliveries.length - unique} repeats, ${((100 * (deliveries.length - unique)) / deliveries.length).toFixed(1)}%), ${CONCURRENCY} at a time, in ${seconds.toFixed(2)} s`,
    );
    console.log(
      `  accepted: ${(results.length / seconds).toFixed(0)} deliveries/s (${(count(202) / seconds).toFixed(0)} new turns/s)`,
    );
    console.log(
      `  accept latency: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    const others = results.length - count(202) - count(200);
    console.log(
      `  answers: ${count(202)} × 202 (unique deliveries: ${unique}), ${count(200)} × 200 (repeats), ${others} other — ${count(202) === unique && others === 0 ? "OK" : "WRONG"}`,
    );
    if (!consumer) return;
    const sample = results.filter((r) => r.status === 202).slice(0, SAMPLE);
    const waitStart = performance.now();
    let done = 0;
    while (performance.now() - waitStart < DONE_WAIT_MS) {
      const statuses = await Promise.all(
        sample.map(
          async (r) =>
            ((await (await fetch(`${worker.origin}/turns/${r.turnId}`)).json()) as { status: string }).status,
        ),
      );
      done = statuses.filter((s) => s === "done").length;
      if (done === sample.length) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    console.log(
      `  turns: ${done}/${sample.length} of the first accepted ones done ${((performance.now() - waitStart) / 1000).toFixed(1)} s after the last accept (bounded at ${DONE_WAIT_MS / 1000} s)`,
    );
  } finally {
    await worker.dispose();
  }
}
