/**
 * Run as its own bundled process by the in-process bench: the headline workload with nothing else
 * in the heap. 2,000 10-event turns (unbounded) from a fresh start, with turns/s and the RSS and heap
 * before and after them; then 4,000 more, timed one by one, each followed by the reference workload. Prints one JSON
 * line: the median and p99 in µs, the reference's median, turns/s, and the memory figures in MiB.
 */
import { percentile } from "../http/rounds.js";
import { benchApps, conversation, timedTurn } from "./bench-tree.js";
import { reference } from "./reference.js";
import { SessionPool } from "./session-pool.js";

const FIRST = 2_000;
const TIMED = 4_000;
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

const apps = benchApps();
const seed = await conversation(apps, 10);
const pool = new SessionPool(apps, apps.unbounded.app.name, seed);
const before = process.memoryUsage();
const t0 = performance.now();
for (let i = 0; i < FIRST; i++) await timedTurn(apps.unbounded, await pool.next());
const seconds = (performance.now() - t0) / 1000;
const after = process.memoryUsage();
const times: number[] = [];
const refTimes: number[] = [];
for (let i = 0; i < TIMED; i++) {
  times.push(await timedTurn(apps.unbounded, await pool.next()));
  refTimes.push(reference(seed));
}
console.log(
  JSON.stringify({
    median: percentile(times, 50),
    p99: percentile(times, 99),
    reference: percentile(refTimes, 50),
    turnsPerSecond: Math.round(FIRST / seconds),
    rssBefore: mib(before.rss),
    rssAfter: mib(after.rss),
    heapBefore: mib(before.heapUsed),
    heapAfter: mib(after.heapUsed),
  }),
);
