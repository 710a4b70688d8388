/**
 * Run as its own process by the in-process bench, so nothing else has grown its heap: 2,000 turns
 * round-robin over 20 sessions of the unbounded app (each grows from 10 to 210 events), then prints one
 * JSON line with turns/s and the process's RSS and heap before and after.
 */
import { benchApps, conversation, timedTurn, USER_ID } from "./bench-tree.js";

const TURNS = 2_000;
const SESSIONS = 20;
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

const apps = benchApps();
const seed = await conversation(apps, 10);
const ids = Array.from({ length: SESSIONS }, (_, i) => `m-${i}`);
for (const sessionId of ids)
  await apps.store.createSession({
    appName: apps.unbounded.app.name,
    userId: USER_ID,
    sessionId,
    events: seed,
  });
for (const sessionId of ids) await timedTurn(apps.unbounded, sessionId);
const before = process.memoryUsage();
const t0 = performance.now();
for (let i = 0; i < TURNS; i++) await timedTurn(apps.unbounded, ids[i % SESSIONS] ?? "m-0");
const seconds = (performance.now() - t0) / 1000;
const after = process.memoryUsage();
globalThis.gc?.();
const settled = process.memoryUsage();
console.log(
  JSON.stringify({
    turnsPerSecond: Math.round(TURNS / seconds),
    rssBefore: mib(before.rss),
    rssAfter: mib(after.rss),
    heapBefore: mib(before.heapUsed),
    heapAfter: mib(after.heapUsed),
    heapAfterGc: mib(settled.heapUsed),
  }),
);
