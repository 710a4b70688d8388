// The chaos run (issue 42): `wrangler dev` with the default lease, SIGKILLed at random points while turns
// are busy in every way `SCENARIOS` lists, restarted on the same storage, and checked after each round.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Message } from "@a2a-js/sdk";
import type { Event } from "../../../src/core/event.js";
import { DEFAULT_LEASE_TTL_MS } from "../../../src/session/lease.js";
import { startPeer } from "../../support/a2a-peer.js";
import { seededRandom } from "../../workers/fuzz/prng.js";
import { type DevServer, freePort, startDevServer } from "../support/dev-server.js";
import { checkSession, type Sent } from "./checks.js";
import { startCounter } from "./counter.js";
import { answerText, startFakeModel, tagsIn } from "./fake-model.js";
import {
  isMessageBefore,
  landingOf,
  PEER_ANSWER_MS,
  type PeerCall,
  percentile,
  type Resume,
  resumesOf,
  type TraceSpan,
} from "./resumes.js";
import { type Driver, SCENARIOS, type Scenario } from "./scenarios.js";

const CONFIG = fileURLToPath(new URL("./wrangler.toml", import.meta.url));
/** A message sent this long before the kill surely reached its session's object. */
const DELIVERY_MS = 1_500;
/** Resume targets (issue 42): turns in the object after the restart, the others after the lease. */
export const IN_OBJECT_TARGET_MS = 5_000;
export const OUTSIDE_TARGET_MS = DEFAULT_LEASE_TTL_MS + 5_000;
const HOOK_SECRET = "chaos-hook-secret";
/** Not Baton's: a queued turn whose message the dev server's in-memory queue lost in the kill. */
export const LOST_IN_DEV_QUEUE = "queued turn lost with the dev server's in-memory queue";

export interface ChaosOptions {
  rounds: number;
  seed: number;
  /** Every this many rounds (0: never) the webhook and cron scenarios run too: each waits out a lease. */
  outsideEvery: number;
  log?: (line: string) => void;
}

export interface Violation {
  seed: number;
  round: number;
  scenario: string;
  session: string;
  message: string;
}

export interface ChaosReport {
  rounds: number;
  kills: number;
  sessions: number;
  messages: number;
  resumes: Resume[];
  /** What the kill cut off, by kind (a model stream, a tool call, waiting messages…). */
  landings: Record<string, number>;
  violations: Violation[];
  /** Queued turns the dev server's in-memory queue lost in a kill (not Baton's: Cloudflare Queues keep them). */
  lostInDevQueue: Violation[];
  seconds: number;
}

interface Running {
  scenario: Scenario;
  session: string;
  sent: Sent[];
  driven: Promise<void>;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const model = await startFakeModel();
  const counter = await startCounter();
  const peerCalls: PeerCall[] = [];
  const peer = await startPeer({
    version: "1.0",
    streaming: false,
    script: (ctx) => {
      const text = JSON.stringify(Message.toJSON(ctx.userMessage));
      peerCalls.push({ at: Date.now(), tags: tagsIn(text) });
      return [{ wait: PEER_ANSWER_MS }, { message: answerText(tagsIn(text)) }];
    },
  });
  const persist = mkdtempSync(join(tmpdir(), "baton-chaos-"));
  const port = await freePort();
  const vars = {
    OPENAI_COMPATIBLE_BASE_URL: model.url,
    COUNTER_URL: counter.url,
    CHAOS_HOOK_SECRET: HOOK_SECRET,
  };
  const start = () =>
    startDevServer(port, persist, vars, {
      config: CONFIG,
      defines: { CHAOS_PEER_CARD: JSON.stringify(peer.cardUrl) },
    });
  const report: ChaosReport = {
    rounds: 0,
    kills: 0,
    sessions: 0,
    messages: 0,
    resumes: [],
    landings: {},
    violations: [],
    lostInDevQueue: [],
    seconds: 0,
  };
  let dev: DevServer = await start();
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const random = seededRandom(options.seed + round);
      const outside = options.outsideEvery > 0 && round % options.outsideEvery === 0;
      const scenarios = SCENARIOS.filter((s) => outside || !s.outside);
      let killed = false;
      let tags = 0;
      const running: Running[] = [];
      const sessionOf = (scenario: Scenario, i: number) =>
        scenario.session?.(round) ?? `r${round}-s${i}-${options.seed}`;
      // Every session is made first, so that every scenario starts at once and the kill's delay counts
      // from the same moment for all of them.
      await Promise.all(
        scenarios.map((s, i) =>
          s.ownSession ? undefined : createSession(dev.origin, s.app, sessionOf(s, i)),
        ),
      );
      for (const [i, scenario] of scenarios.entries()) {
        const session = sessionOf(scenario, i);
        const sent: Sent[] = [];
        const driver: Driver = {
          origin: dev.origin,
          app: scenario.app,
          session,
          random,
          hookSecret: HOOK_SECRET,
          killed: () => killed,
          tag: () => `#r${round}s${i}m${++tags}`,
          record: (message) => sent.push(message),
          pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
          send: (text, how = "run") => send(dev.origin, scenario.app, session, text, how, sent),
        };
        running.push({ scenario, session, sent, driven: scenario.drive(driver).catch(() => undefined) });
      }
      const killAfter = outside ? 1_500 + random.int(2_500) : 200 + random.int(2_800);
      await new Promise((resolve) => setTimeout(resolve, killAfter));
      killed = true;
      const killAt = Date.now();
      await dev.kill();
      await Promise.all(running.map((r) => r.driven));
      report.kills += 1;
      const calls = { model: model.calls, tools: counter.hits, peer: peerCalls };
      for (const r of running)
        for (const landing of landingOf(r, killAt, calls))
          report.landings[landing] = (report.landings[landing] ?? 0) + 1;
      dev = await start();
      const restartAt = Date.now();
      log(
        `round ${round}: killed ${killAfter} ms in, restarted in ${((restartAt - killAt) / 1000).toFixed(1)} s`,
      );
      const checked = await Promise.all(
        running.map((r) =>
          settle(dev.origin, r, { killAt, restartAt, outside: r.scenario.outside === true }),
        ),
      );
      for (const [i, r] of running.entries()) {
        const outcome = checked[i];
        if (!outcome) continue;
        report.sessions += 1;
        report.messages += r.sent.length;
        report.resumes.push(...outcome.resumes);
        for (const message of outcome.violations) {
          const found = { seed: options.seed, round, scenario: r.scenario.name, session: r.session, message };
          if (message.startsWith(LOST_IN_DEV_QUEUE)) report.lostInDevQueue.push(found);
          else report.violations.push(found);
        }
      }
      const charged = new Map<string, number>();
      for (const hit of counter.hits.filter((h) => h.tool === "charge"))
        charged.set(hit.ref, (charged.get(hit.ref) ?? 0) + 1);
      for (const [ref, times] of charged)
        if (times > 1 && !report.violations.some((v) => v.message.startsWith(`charge ${ref}`)))
          report.violations.push({
            seed: options.seed,
            round,
            scenario: "tools",
            session: "-",
            message: `charge ${ref} was called ${times} times (not idempotent: at most once)`,
          });
      report.rounds = round;
    }
  } finally {
    await dev.kill();
    await Promise.all([model.close(), counter.close(), peer.close()]);
    rmSync(persist, { recursive: true, force: true });
    report.seconds = (Date.now() - started) / 1000;
  }
  return report;
}

/**
 * What wrangler dev's proxy answers (503) when its own fetch to the Worker fails with a network error: under
 * load a pooled connection the Worker's side reset gets it with no restart at all (bench/http/client.ts).
 */
const DROPPED_BY_DEV_PROXY = "Your worker restarted mid-request";

/** Creates a session; again after a send the dev proxy dropped (then a 409 says the first one landed). */
async function createSession(origin: string, app: string, session: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${origin}/apps/${app}/users/u/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sessionId: session }),
    });
    const text = await res.text();
    if (res.status === 200 || (attempt > 1 && res.status === 409)) return;
    const dropped = res.status === 503 && text.startsWith(DROPPED_BY_DEV_PROXY);
    if (!dropped || attempt === 5)
      throw new Error(`creating ${app}/${session} answered ${res.status}: ${text.slice(0, 200)}`);
  }
}

/** Sends one message over `/run` or `/run_sse` and records it with the status it was answered with. */
async function send(origin: string, app: string, session: string, text: string, how: string, sent: Sent[]) {
  const [tag = ""] = tagsIn(text);
  const message: Sent = { tag, sentAt: Date.now() };
  sent.push(message);
  const body = {
    appName: app,
    userId: "u",
    sessionId: session,
    newMessage: { role: "user", parts: [{ text }] },
    ...(how === "run_sse" ? { streaming: true } : {}),
  };
  try {
    const res = await fetch(`${origin}/${how}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await res.text();
    message.status = res.status;
    // SAFETY: a refusal's body is Baton's error JSON (`{ detail, code }`).
    const code = res.status >= 400 ? (JSON.parse(answer) as { code?: string }).code : undefined;
    if (code !== undefined) message.code = code;
  } catch {
    // Cut off by the kill: whether it reached the session is judged by when it was sent.
  }
}

/**
 * After the restart: a probe message shows the session is not stuck busy (it is answered once the resumed
 * and waiting turns ran), then its events and traces are checked and its resumes measured.
 */
async function settle(
  origin: string,
  r: Running,
  times: { killAt: number; restartAt: number; outside: boolean },
): Promise<{ violations: string[]; resumes: Resume[] }> {
  const { app } = r.scenario;
  const user = r.scenario.userId ?? "u";
  const deadline = times.restartAt + (times.outside ? OUTSIDE_TARGET_MS + 60_000 : 60_000);
  const probe: Sent = { tag: `${r.sent[0]?.tag ?? `#${r.session}`}-probe`, sentAt: 0 };
  const violations: string[] = [];
  for (;;) {
    probe.sentAt = Date.now();
    const res = await fetch(`${origin}/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        appName: app,
        userId: user,
        sessionId: r.session,
        newMessage: { role: "user", parts: [{ text: probe.tag }] },
      }),
      signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())),
    }).catch(() => undefined);
    if (res?.status === 200) {
      await res.text();
      probe.status = 200;
      r.sent.push(probe);
      break;
    }
    await res?.text();
    if (res?.status === 404 && r.scenario.ownSession)
      return { violations: await lostFiring(origin, r, times.killAt), resumes: [] };
    if (Date.now() > deadline) {
      violations.push(`still busy ${((Date.now() - times.restartAt) / 1000).toFixed(0)} s after the restart`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const events = await fetchJson<{ events: Event[] }>(`${origin}/apps/${app}/users/u/sessions/${r.session}`);
  const spans = await fetchJson<TraceSpan[]>(
    `${origin}/dev/apps/${app}/debug/trace/session/${r.session}?user_id=u`,
  );
  const delivered = (m: Sent) => m.status !== undefined || m.sentAt <= times.killAt - DELIVERY_MS;
  violations.push(...checkSession(events.events, r.sent, r.scenario.mode, delivered));
  const resumes = resumesOf(events.events, spans, { ...times, scenario: r.scenario.name });
  for (const resume of resumes) {
    const target = resume.outside ? OUTSIDE_TARGET_MS : IN_OBJECT_TARGET_MS;
    if (resume.latencyMs > target)
      violations.push(
        `resumed ${(resume.latencyMs / 1000).toFixed(1)} s after the ${resume.outside ? "kill" : "restart"}`,
      );
  }
  violations.push(...notResumed(events.events, spans, times.killAt, resumes));
  if (violations.length > 0) violations.push(`its events: ${describeEvents(events.events)}`);
  return { violations, resumes };
}

/**
 * A delivery or firing whose session never came to be: a violation if it surely reached the Worker, unless
 * its queued turn never began. The dev server's queue keeps its messages in memory (Miniflare's broker),
 * so a kill loses those not yet taken; Cloudflare Queues keep them. That case is counted apart.
 */
async function lostFiring(origin: string, r: Running, killAt: number): Promise<string[]> {
  const firing = r.sent[0];
  if (!firing || (firing.status === undefined && firing.sentAt > killAt - DELIVERY_MS)) return [];
  if (firing.turnId) {
    const turn = await fetchJson<{ status?: string }>(`${origin}/turns/${firing.turnId}`);
    if (turn.status === "queued") return [`${LOST_IN_DEV_QUEUE} (${firing.tag})`];
  }
  return [`${firing.tag} (${firing.status ?? "sent"}) left no session`];
}

/** Turns begun before the kill that had not ended by then, and were never run again. */
function notResumed(
  events: readonly Event[],
  spans: readonly TraceSpan[],
  killAt: number,
  resumes: Resume[],
) {
  const ended = new Set(
    spans.filter((s) => s.name === "invocation" && s.end_time / 1e6 <= killAt).map(invocationOf),
  );
  const resumed = new Set(resumes.map((r) => r.invocationId));
  const begun = new Set(events.filter((e) => isMessageBefore(e, killAt)).map((e) => e.invocationId));
  return [...begun]
    .filter((id) => !ended.has(id) && !resumed.has(id))
    .map((id) => `turn ${id} was cut off by the kill and not resumed`);
}

/** The events in one line each (author, invocation, what it holds), to read a violation against. */
function describeEvents(events: readonly Event[]): string {
  const ids = new Map<string, number>();
  const lines = events.map((e) => {
    const inv = ids.get(e.invocationId) ?? ids.size + 1;
    ids.set(e.invocationId, inv);
    const parts = (e.content?.parts ?? []).map((p) =>
      p.text !== undefined
        ? JSON.stringify(p.text.slice(0, 60))
        : p.functionCall
          ? `call ${p.functionCall.name}`
          : p.functionResponse
            ? `response ${p.functionResponse.name}`
            : "part",
    );
    const error = e.errorCode ? ` ${e.errorCode}` : "";
    const compaction = e.actions.compaction ? " compaction" : "";
    return `\n      ${e.author}@${inv} ${e.timestamp.toFixed(2)}${error}${compaction} ${parts.join(" ")}`;
  });
  return lines.join("");
}

const invocationOf = (span: TraceSpan): string =>
  String(span.attributes["gcp.vertex.agent.invocation_id"] ?? "");

async function fetchJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  // SAFETY: the run reads its own dev server's JSON routes, whose shapes it knows.
  return (await res.json()) as T;
}

/** The report as the run prints it. */
export function formatReport(report: ChaosReport, seed: number): string {
  const ms = (list: number[], p: number) => `${(percentile(list, p) / 1000).toFixed(2)} s`;
  const inObject = report.resumes.filter((r) => !r.outside).map((r) => r.latencyMs);
  const outside = report.resumes.filter((r) => r.outside).map((r) => r.latencyMs);
  const lines = [
    `chaos: seed ${seed}, ${report.rounds} rounds, ${report.kills} kills, ${report.sessions} sessions, ${report.messages} messages, ${report.seconds.toFixed(0)} s`,
    `resumes: ${report.resumes.length} (${inObject.length} in the object, ${outside.length} outside)`,
    `resume latency in the object (after the restart): p50 ${ms(inObject, 50)}, p99 ${ms(inObject, 99)}, max ${ms(inObject, 100)}`,
    ...(outside.length > 0
      ? [
          `resume latency outside (after the kill, lease ${DEFAULT_LEASE_TTL_MS / 1000} s): p50 ${ms(outside, 50)}, p99 ${ms(outside, 99)}`,
        ]
      : []),
    `kills landed on: ${Object.entries(report.landings)
      .sort((a, b) => b[1] - a[1])
      .map(([kind, n]) => `${kind} ${n}`)
      .join(", ")}`,
    ...(report.lostInDevQueue.length > 0
      ? [`queued turns the dev server's in-memory queue lost (not checked): ${report.lostInDevQueue.length}`]
      : []),
    `violations: ${report.violations.length}`,
    ...report.violations.map(
      (v) => `  seed ${v.seed} round ${v.round} [${v.scenario}] ${v.session}: ${v.message}`,
    ),
  ];
  return lines.join("\n");
}
