/**
 * A session of 100,000 events (decision 046): grown with the HTTP bench's seed route (`bench/http/seed.ts`:
 * a bench-only subclass of the session object that stores synthetic events 2,500 per transaction, with the
 * store's own SQL; 100,000 events are ~30 MB of JSON, past the 1 MiB a request body may carry, so session
 * creation with seed `events` grows a session to ~4,000 events at most), then indexed by an ordinary `PATCH`.
 * Times a window's read against a 100-event session's, the bounded plain `GET`, the log in pages and the delete.
 */
import { BOUNDED_APP } from "../http/bench-env.js";
import { interleaved, ms, percentile, verdict } from "../http/rounds.js";
import { median } from "../timing.js";
import type { ScaleClient } from "./scale-client.js";

const USER = "long";
const path = (sessionId: string) => `/apps/${BOUNDED_APP}/users/${USER}/sessions/${sessionId}`;

async function grown(client: ScaleClient, sessionId: string, events: number): Promise<void> {
  const created = await client.send("POST", `/apps/${BOUNDED_APP}/users/${USER}/sessions`, { sessionId });
  if (created.status !== 200) throw new Error(`create ${sessionId}: ${created.status}`);
  const seeded = await client.send("POST", "/bench/seed", {
    appName: BOUNDED_APP,
    userId: USER,
    sessionId,
    count: events,
  });
  if (seeded.status !== 200)
    throw new Error(`seed ${sessionId}: ${seeded.status} ${seeded.text.slice(0, 200)}`);
  // Written behind the index: an ordinary state change writes the session's row again.
  const patched = await client.send("PATCH", path(sessionId), { stateDelta: { grown: events } });
  if (patched.status !== 200) throw new Error(`patch ${sessionId}: ${patched.status}`);
}

export async function longSessionBench(client: ScaleClient, events: number): Promise<void> {
  const t0 = performance.now();
  await grown(client, "long", events);
  const seeding = performance.now() - t0;
  await grown(client, "short", 100);
  console.log(
    `  a session of ${events} events grown in ${ms(seeding)} (bench seed route, 2,500 events a transaction)`,
  );

  const newest = (sessionId: string) => async () => {
    const { body, answer } = await client.json<{ events: unknown[] }>(
      `${path(sessionId)}?numRecentEvents=100`,
    );
    if (body.events.length !== 100) throw new Error(`${sessionId}: ${body.events.length} events`);
    return answer.ms;
  };
  const [short, long] = await interleaved(
    [
      { label: "100", turn: newest("short") },
      { label: "long", turn: newest("long") },
    ],
    { warmup: 5, rounds: 60 },
  );
  if (!short || !long) throw new Error("no read rounds");
  const ratio = median(long) / median(short);
  console.log(
    `  GET the newest 100 of ${events} events: p50 ${ms(percentile(long, 50))}, p99 ${ms(percentile(long, 99))};` +
      ` of 100 events p50 ${ms(percentile(short, 50))}: ${ratio.toFixed(2)}× ${verdict(ratio, 2)} (target ≤ 2×)`,
  );

  const { body: last } = await client.json<{ events: { timestamp: number }[] }>(
    `${path("long")}?numRecentEvents=100`,
  );
  const after = last.events[0]?.timestamp ?? 0;
  const times: number[] = [];
  for (let i = 0; i < 20; i++)
    times.push((await client.json(`${path("long")}?afterTimestamp=${after}`)).answer.ms);
  console.log(`  GET afterTimestamp (the newest 100) of ${events} events: p50 ${ms(percentile(times, 50))}`);

  const plain: number[] = [];
  let truncated = "";
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const { answer } = await client.json(path("long"));
    plain.push(answer.ms);
    truncated = String(answer.headers["events-truncated"]);
    bytes = answer.text.length;
  }
  console.log(
    `  a plain GET of ${events} events: ${ms(plain)} median, ${(bytes / 2 ** 20).toFixed(1)} MiB` +
      ` (Events-Truncated: ${truncated}; at most 10,000 events a read)`,
  );

  const w0 = performance.now();
  let read = 0;
  let token: string | undefined;
  do {
    const query = `?pageSize=10000${token ? `&pageToken=${token}` : ""}`;
    const { body, answer } = await client.json<unknown[]>(`${path("long")}/events${query}`);
    read += body.length;
    const next = answer.headers["next-page-token"];
    token = typeof next === "string" ? next : undefined;
  } while (token);
  if (read < events) throw new Error(`the event pages held ${read} events`);
  console.log(`  the whole log in pages of …/events: ${read} events in ${ms(performance.now() - w0)}`);

  const deleted = await client.send("DELETE", path("long"));
  const gone = await client.send("GET", path("long"));
  if (deleted.status !== 200 || gone.status !== 404)
    throw new Error(`delete: ${deleted.status}, then ${gone.status}`);
  console.log(`  DELETE of the ${events}-event session: ${ms(deleted.ms)} (then 404)`);
}
