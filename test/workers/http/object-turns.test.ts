import {
  createExecutionContext,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BaseAgent } from "../../../src/agents/base-agent.js";
import type { InvocationContext } from "../../../src/agents/invocation-context.js";
import type { RunPlugin } from "../../../src/agents/plugins.js";
import { userText } from "../../../src/core/content.js";
import { BatonError } from "../../../src/core/errors.js";
import type { Event } from "../../../src/core/event.js";
import { createWorker } from "../../../src/handlers/create-worker.js";
import { defineApp } from "../../../src/runner/app.js";
import { TURN_BEAT_MS, WHOLE_TURN_MAX_CHARS } from "../../../src/turns/object-turns.js";
import { until } from "../../support/signal.js";
import { deferred, GateAgent } from "../support/gate-agent.js";
import { expectJson, freshIds, runBody, sessionsOf, TEST_TOKEN } from "../support/http.js";
import { elapseLease, sessionStub } from "../support/turn-control.js";

/** A Worker on a gated app; `send` answers the response and whether the request's own work has settled. */
function setup<A extends BaseAgent = GateAgent>(
  agent: A = new GateAgent({ name: "root" }) as BaseAgent as A,
  plugins: RunPlugin[] = [],
) {
  const ids = freshIds("obj");
  const worker = createWorker({ apps: [defineApp({ name: ids.app, rootAgent: agent, plugins })] });
  const workerEnv = { ...env, API_TOKENS: TEST_TOKEN };
  const call = async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const ctx = createExecutionContext();
    const headers = { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" };
    const body = init.json === undefined ? {} : { body: JSON.stringify(init.json) };
    const req = new Request(`http://baton.test${path}`, { method: init.method ?? "GET", headers, ...body });
    // SAFETY: an incoming request differs only in its `cf` object, which no handler reads.
    const response = await worker.fetch(req as Request<unknown, IncomingRequestCfProperties>, workerEnv, ctx);
    return { response, settled: waitOnExecutionContext(ctx) };
  };
  const plain = async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const { response, settled } = await call(path, init);
    await settled;
    return response;
  };
  const key = { appName: ids.app, userId: ids.user, sessionId: ids.session };
  return { ...ids, key, agent, call, sessions: sessionsOf(plain, ids.app, ids.user), plain };
}

/**
 * An agent whose first run waits at a gate the test never opens before it is done (a turn whose isolate
 * died, as far as the session can tell once its lease lapsed); every later run answers at once.
 */
class StuckOnceAgent extends BaseAgent {
  readonly transferPolicy = undefined;
  readonly stuck = deferred();
  readonly gate = deferred();
  runs = 0;

  protected override async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    this.runs += 1;
    if (this.runs === 1) {
      this.stuck.resolve();
      await this.gate.promise;
      return;
    }
    const said = ctx.userContent.parts?.[0]?.text ?? "";
    yield ctx.newEvent({ content: { role: "model", parts: [{ text: `resumed: ${said}` }] } });
  }
}

/**
 * An agent whose turn says more than one RPC answer carries: partial events (never stored, so not held to
 * a row's size) of `chunk` characters each, `WHOLE_TURN_MAX_CHARS` and more in all, then a short answer.
 */
class LongWindedAgent extends BaseAgent {
  readonly transferPolicy = undefined;
  static readonly chunk = 1024 * 1024;
  static readonly partials = Math.ceil(WHOLE_TURN_MAX_CHARS / LongWindedAgent.chunk) + 2;

  protected override async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    for (let i = 0; i < LongWindedAgent.partials; i++) {
      const text = String(i % 10).repeat(LongWindedAgent.chunk);
      yield ctx.newEvent({ partial: true, content: { role: "model", parts: [{ text }] } });
    }
    yield ctx.newEvent({ content: { role: "model", parts: [{ text: "done" }] } });
  }
}

/**
 * A plugin that fails after the turn's agents as the store fails (a `BatonError` no agent claims): the turn
 * ends with that failure, which no event can record.
 */
const brokenStore: RunPlugin = {
  name: "broken-store",
  afterRun: () => {
    throw new BatonError("storage_error", "The session's storage refused a write.");
  },
};

/** Which comes first: `work` settling, or `ms` passing. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const passed = deferred<boolean>();
  const timer = setTimeout(() => passed.resolve(false), ms);
  void work.then(() => passed.resolve(true));
  const settled = await passed.promise;
  clearTimeout(timer);
  return settled;
}

const alarmOf = (key: Parameters<typeof sessionStub>[0]) =>
  runInDurableObject(sessionStub(key), (_instance, state) => state.storage.getAlarm());

describe("HTTP turns run in their session's Durable Object (decision 040)", () => {
  it("holds nothing of the turn in the request: its work settles while the turn still runs, and the turn ends on its own", async () => {
    const { app, user, session, key, agent, call, sessions, plain } = setup();
    await sessions.create({ sessionId: session });
    const { response, settled } = await call("/run_sse", {
      method: "POST",
      json: runBody(app, user, session, "hi"),
    });
    await agent.started.promise;
    await response.body?.cancel("client gone");
    // The Worker's request (and its waitUntil) is done although the agent still waits at its gate.
    expect(await settlesWithin(settled, 2_000)).toBe(true);
    const busy = await plain("/run", { method: "POST", json: runBody(app, user, session, "meanwhile") });
    expect(busy.status).toBe(409);

    agent.open();
    await sessionStub(key).turnsSettled();
    const events = await sessions.eventsOf(session);
    expect(events.map((e: Event) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["user", "hi"],
      ["root", "gate answers: hi"],
    ]);
  });

  it("beats the object's alarm while its turn runs, and leaves no alarm once the turn ended", async () => {
    const { app, user, session, key, agent, call, sessions } = setup();
    await sessions.create({ sessionId: session });
    const before = Date.now();
    // `/run` answers once the turn ended: its response is awaited after the gate opens.
    const running = call("/run", { method: "POST", json: runBody(app, user, session, "hi") });
    await agent.started.promise;
    const beat = await alarmOf(key);
    expect(beat).toBeGreaterThan(before);
    expect(beat).toBeLessThanOrEqual(Date.now() + TURN_BEAT_MS);
    // The alarm firing early changes nothing: the turn still runs, and the beat is set again.
    expect(await runDurableObjectAlarm(sessionStub(key))).toBe(true);
    expect(await alarmOf(key)).not.toBeNull();

    agent.open();
    const { response } = await running;
    expect((await expectJson<Event[]>(response, 200)).map((e) => e.author)).toEqual(["root"]);
    await sessionStub(key).turnsSettled();
    expect(await alarmOf(key)).toBeNull();
  });

  it("resumes a turn that died in the object itself, with the app that ran it, once its lease lapsed", async () => {
    const agent = new StuckOnceAgent({ name: "root" });
    const { app, user, session, key, call, sessions } = setup(agent);
    await sessions.create({ sessionId: session });
    void call("/run_sse", { method: "POST", json: runBody(app, user, session, "pay it") });
    await agent.stuck.promise;
    // As the session sees a dead turn: its lease lapses with nobody renewing it; the object's alarm finds it.
    await elapseLease(key, 10 * 60_000);
    expect(await runDurableObjectAlarm(sessionStub(key))).toBe(true);
    const events = await until(async () => {
      const stored = await sessions.eventsOf(session);
      return stored.length >= 2 ? stored : undefined;
    }, 20);
    expect(events.map((e) => [e.author, e.invocationId, e.content?.parts?.[0]?.text])).toEqual([
      ["user", events[0]?.invocationId, "pay it"],
      ["root", events[0]?.invocationId, "resumed: pay it"],
    ]);
    expect(agent.runs).toBe(2);
    agent.gate.resolve();
  });

  it("answers /run with every event of a turn that says more than one RPC answer carries, in order", async () => {
    const { app, user, session, sessions, plain } = setup(new LongWindedAgent({ name: "root" }));
    await sessions.create({ sessionId: session });
    const response = await plain("/run", { method: "POST", json: runBody(app, user, session, "talk") });
    const events = await expectJson<Event[]>(response, 200);
    const texts = events.map((e) => e.content?.parts?.[0]?.text ?? "");
    expect(texts.map((t) => [t.length, t.slice(0, 1)])).toEqual([
      ...Array.from({ length: LongWindedAgent.partials }, (_, i) => [LongWindedAgent.chunk, String(i % 10)]),
      [4, "d"],
    ]);
    expect(events.slice(0, -1).every((e) => e.partial === true)).toBe(true);
    expect((await sessions.eventsOf(session)).map((e: Event) => e.author)).toEqual(["user", "root"]);
  });

  it("answers /run's failure that no event records as its HTTP error, after the events it stored", async () => {
    const agent = new GateAgent({ name: "root" });
    agent.open();
    const { app, user, session, sessions, plain } = setup(agent, [brokenStore]);
    await sessions.create({ sessionId: session });
    const response = await plain("/run", { method: "POST", json: runBody(app, user, session, "go") });
    expect(await expectJson(response, 500)).toEqual({
      detail: "The session's storage refused a write.",
      code: "storage_error",
    });
    const stored = await sessions.eventsOf(session);
    expect(stored.map((e: Event) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["user", "go"],
      ["root", "gate answers: go"],
    ]);
  });

  it("answers null to a host this isolate does not know, having stored nothing (the Worker then runs the turn)", async () => {
    const { app, user, session, key, sessions } = setup();
    await sessions.create({ sessionId: session });
    const run = { userId: user, sessionId: session, newMessage: userText("hi") };
    const answer = await sessionStub(key).runTurn({ host: "worker-unknown", appName: app, run, vars: {} });
    expect(answer).toEqual({ ok: true, value: null });
    expect(await sessions.eventsOf(session)).toEqual([]);
  });
});
