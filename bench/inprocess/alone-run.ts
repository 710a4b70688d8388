/**
 * Run as its own bundled process by the in-process bench: 10-event turns (unbounded) with nothing else in
 * the heap, after 2,000 untimed ones, to set beside the same turns timed next to 10,000-event sessions.
 * Prints one JSON line: the median and p99 in µs.
 */
import { benchApps, conversation, timedTurn } from "./bench-tree.js";
import { SessionPool } from "./session-pool.js";

const WARMUP = 2_000;
const TIMED = 4_000;

const apps = benchApps();
const pool = new SessionPool(apps, apps.unbounded.app.name, await conversation(apps, 10));
for (let i = 0; i < WARMUP; i++) await timedTurn(apps.unbounded, await pool.next());
const times: number[] = [];
for (let i = 0; i < TIMED; i++) times.push(await timedTurn(apps.unbounded, await pool.next()));
times.sort((a, b) => a - b);
const at = (p: number) =>
  times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? Number.NaN;
console.log(JSON.stringify({ median: at(50), p99: at(99) }));
