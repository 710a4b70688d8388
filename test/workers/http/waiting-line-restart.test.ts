import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { userText } from "../../../src/core/content.js";
import { createEvent, type Event, EventSchema } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
import { DEFAULT_LEASE_TTL_MS } from "../../../src/session/lease.js";
import { RETURN_GRACE_MS } from "../../../src/turns/waiting-concern.js";
import { turnLedger } from "../../../src/webhooks/turn-ledger.js";
import { until } from "../../support/signal.js";
import { expectJson, freshIds, noSleep, runBody } from "../support/http.js";
import { gatedModel, sessionStub } from "../support/turn-control.js";
import { hookWorker } from "../support/webhooks.js";

const services = { sleep: noSleep, log: () => undefined };

/**
 * An `enqueue` app whose model waits at a gate, its session made, and a first turn held at the gate. Its
 * turns run in the session's object (decision 040) or in the Worker that took the request (`"request"`).
 */
async function busySession(runTurnsIn: "session-object" | "request") {
  const { app, user, session } = freshIds("line");
  const key = { appName: app, userId: user, sessionId: session };
  const gated = gatedModel();
  const root = new LlmAgent({ name: "root", model: gated.model });
  const worker = hookWorker({
    apps: [defineApp({ name: app, rootAgent: root, doubleTexting: "enqueue" })],
    services,
    runTurnsIn,
  });
  const json = (body: unknown) => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await expectJson(worker.call(`/apps/${app}/users/${user}/sessions`, json({ sessionId: session })), 200);
  const run = (text: string) => worker.call("/run", json(runBody(app, user, session, text)));
  const first = run("one");
  await gated.waiting(1);
  const events = async () =>
    (await expectJson<Session>(worker.call(`/apps/${app}/users/${user}/sessions/${session}`), 200)).events;
  const stored = async () =>
    (await events()).map((e: Event) => [e.author, e.content?.parts?.[0]?.text?.split(".")[0]]);
  return { key, gated, worker, run, first, events, stored };
}

/** The turns stored in the session object's line, by user event id. */
const waitingRows = (key: Parameters<typeof sessionStub>[0]) =>
  runInDurableObject(sessionStub(key), (_instance, state) =>
    state.storage.sql
      .exec("SELECT event_id FROM waiting_turns")
      .toArray()
      .map((row) => row.event_id),
  );

/** The stored user events of the waiting turns, in arrival order. */
const waitingEvents = (key: Parameters<typeof sessionStub>[0]) =>
  runInDurableObject(sessionStub(key), (_instance, state) =>
    state.storage.sql
      .exec("SELECT event FROM waiting_turns ORDER BY arrived_at")
      .toArray()
      .map((row) => EventSchema.parse(JSON.parse(String(row.event)))),
  );

/** Resolves once `n` turns wait in the stored line (each look is a call to the object, never a sleep). */
async function untilWaiting(key: Parameters<typeof sessionStub>[0], n: number) {
  while ((await waitingRows(key)).length < n) await Promise.resolve();
}

/** The object restarts: everything in its memory is lost, its SQLite and its alarm stay. */
const restart = (key: Parameters<typeof sessionStub>[0]) =>
  expect(
    runInDurableObject(sessionStub(key), (_instance, state) => state.abort("restarted by the test")),
  ).rejects.toThrow();

/** What the session holds once both messages ran, each once and in order: "one" answered, then "two". */
const ONE_THEN_TWO = [
  ["user", "one"],
  ["root", expect.any(String)],
  ["user", "two"],
  ["root", expect.any(String)],
];

describe("the double-texting line (enqueue) across a restart of the session's object", () => {
  it("keeps the place of a Worker's caller whose call broke: it asks again, waits, and is answered in order", async () => {
    const t = await busySession("request");
    const second = t.run("two");
    await untilWaiting(t.key, 1);
    await restart(t.key);
    // The second caller's Worker asks again and waits in the line it left; the first turn then ends.
    t.gated.open();
    expect((await t.first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(await t.stored()).toEqual(ONE_THEN_TWO);
    expect(t.gated.asked).toEqual(["one", "two"]);
    expect(await waitingRows(t.key)).toEqual([]);
  });

  it("queues the turn of a caller that is gone, once its grace is over, and it runs once after the running turn", async () => {
    const t = await busySession("request");
    // A caller that waits in line and never comes back (its Worker is gone too).
    const invocationId = `e-waiting-${crypto.randomUUID()}`;
    const eventEnv = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => Date.now() } };
    const userEvent = createEvent({ invocationId, author: "user", content: userText("two") }, eventEnv);
    const gone = sessionStub(t.key)
      .beginTurn({
        event: userEvent,
        window: {},
        leaseTtlMs: DEFAULT_LEASE_TTL_MS,
        doubleTexting: "enqueue",
        agent: "root",
      })
      .then(
        () => "begun",
        (error: unknown) => error,
      );
    await untilWaiting(t.key, 1);
    await restart(t.key);
    expect(await gone).toMatchObject({ durableObjectReset: true });

    // Within the grace nothing is queued; after it, the alarm queues the turn with its own ids.
    if (!env.WEBHOOK_TURNS) throw new Error("wrangler.toml binds WEBHOOK_TURNS");
    const ledger = turnLedger(env.WEBHOOK_TURNS);
    const turnId = ledger.turnIdOf(t.key.appName, "resume", invocationId, `${invocationId}#waiting`, t.key);
    expect(await runDurableObjectAlarm(sessionStub(t.key))).toBe(true);
    expect(await ledger.turn(turnId)?.get()).toBeNull();
    await runInDurableObject(sessionStub(t.key), (_instance, state) => {
      state.storage.sql.exec("UPDATE waiting_turns SET arrived_at = arrived_at - ?", RETURN_GRACE_MS);
    });
    expect(await runDurableObjectAlarm(sessionStub(t.key))).toBe(true);
    expect(await ledger.turn(turnId)?.get()).toMatchObject({
      origin: "resume",
      status: "queued",
      invocationId,
      userEventId: userEvent.id,
    });
    expect(await waitingRows(t.key)).toEqual([]);

    // The running turn ends; the queued one (on the test env's consumer-less queue) runs after it, once.
    t.gated.open();
    expect((await t.first).status).toBe(200);
    expect(await t.worker.consume([{ turnId }])).toMatchObject({ acked: 1, retried: [] });
    expect(await t.worker.consume([{ turnId }])).toMatchObject({ acked: 1, retried: [] });
    expect(await t.stored()).toEqual(ONE_THEN_TWO);
    expect(t.gated.asked).toEqual(["one", "two"]);
  });

  it("resumes the dead turn at once in the object that ran it when that object restarts, then runs the waiting one there: in order, once, nothing queued, no lease waited out", async () => {
    const t = await busySession("session-object");
    const second = t.run("two");
    await untilWaiting(t.key, 1);
    const [waitingEvent] = await waitingEvents(t.key);
    if (!waitingEvent) throw new Error("no waiting turn stored");
    await restart(t.key);
    // Both requests ran in the object: both end with it (decision 040); their turns are in its storage.
    await Promise.all([t.first, second]);
    const [userOne] = await t.events();
    if (!userOne) throw new Error("the first turn stored no user event");

    // The call above started the object again: its alarm resumes the dead turn at once (decision 047).
    await t.gated.waiting(2);
    t.gated.open();
    await until(async () => ((await t.stored()).length === 4 ? true : undefined));
    await sessionStub(t.key).turnsSettled();
    expect(await t.stored()).toEqual(ONE_THEN_TWO);
    expect(t.gated.asked).toEqual(["one", "one", "two"]);
    const events = await t.events();
    expect(events.map((e) => e.invocationId)).toEqual([
      userOne.invocationId,
      userOne.invocationId,
      waitingEvent.invocationId,
      waitingEvent.invocationId,
    ]);
    expect(await waitingRows(t.key)).toEqual([]);
    if (!env.WEBHOOK_TURNS) throw new Error("wrangler.toml binds WEBHOOK_TURNS");
    const ledger = turnLedger(env.WEBHOOK_TURNS);
    const { invocationId } = userOne;
    const resumeId = ledger.turnIdOf(t.key.appName, "resume", invocationId, `${invocationId}#1`, t.key);
    expect(await ledger.turn(resumeId)?.get()).toBeNull();
  });
});
