/**
 * Run as its own bundled process by the in-process bench: the headline workload with nothing else
 * in the heap. 2,000 10-event turns (unbounded) from a fresh start, with turns/s and the RSS and heap
 * before and after them; then 4,000 more, timed one by one. Prints one JSON line: the median and p99 in
 * µs, turns/s, and the memory figures in MiB.
 */
import { benchApps, conversation, timedTurn } from "./bench-tree.js";
import { SessionPool } from "./session-pool.js";

const FIRST = 2_000;
const TIMED = 4_000;
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

const apps = benchApps();
const pool = new SessionPool(apps, apps.unbounded.app.name, await conversation(apps, 10));
const before = process.memoryUsage();
const t0 = performance.now();
for (let i = 0; i < FIRST; i++) await timedTurn(apps.unbounded, await pool.next());
const seconds = (performance.now() - t0) / 1000;
const after = process.memoryUsage();
const times: number[] = [];
for (let i = 0; i < TIMED; i++) times.push(await timedTurn(apps.unbounded, await pool.next()));
times.sort((a, b) => a - b);
const at = (p: number) =>
  times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? Number.NaN;
console.log(
  JSON.stringify({
    median: at(50),
    p99: at(99),
    turnsPerSecond: Math.round(FIRST / seconds),
    rssBefore: mib(before.rss),
    rssAfter: mib(after.rss),
    heapBefore: mib(before.heapUsed),
    heapAfter: mib(after.heapUsed),
  }),
);
