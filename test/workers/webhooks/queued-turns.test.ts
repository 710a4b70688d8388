import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { BaseAgent } from "../../../src/agents/base-agent.js";
import type { Event } from "../../../src/core/event.js";
import { DEFAULT_RETRY as MODEL_RETRY } from "../../../src/core/llm.js";
import type { Session } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
import { turnLedger } from "../../../src/webhooks/turn-ledger.js";
import { seedApp } from "../support/apps.js";
import { fakeModelServer } from "../support/fake-model.js";
import { GateAgent } from "../support/gate-agent.js";
import { expectJson, freshIds } from "../support/http.js";
import { hookServices, hookWorker, sessionTextHook, sign } from "../support/webhooks.js";

const KEY = `whsec_${btoa("queued-turns-test-key")}`;
const NOW = 1_900_000_000;
const logs: string[] = [];
const services = hookServices(NOW, logs);

/** An app with a Standard Webhooks hook: `{ session, text }` payloads become turns of user `hooks`. */
function hookApp(name: string, rootAgent: BaseAgent, resultPath?: string) {
  return defineApp({
    name,
    rootAgent,
    webhooks: [
      sessionTextHook(
        resultPath
          ? { url: `${inject("resultReceiverUrl")}${resultPath}`, secretName: "RESULT_SECRET" }
          : undefined,
      ),
    ],
  });
}

function setup(
  rootAgent: (app: string) => BaseAgent,
  options: { resultPath?: string; vars?: Record<string, string> } = {},
) {
  const ids = freshIds("queued");
  const app = hookApp(ids.app, rootAgent(ids.app), options.resultPath);
  const hooks = hookWorker(
    { apps: [app], services },
    { EVENTS_KEY: KEY, RESULT_SECRET: inject("resultSecret"), ...options.vars },
  );
  const deliver = async (session: string, text: string) => {
    const body = JSON.stringify({ session, text });
    const headers = sign.standardWebhooks(KEY, body, `msg_${crypto.randomUUID()}`, NOW);
    return expectJson<{ turnId: string; sessionId: string }>(
      hooks.post(`/webhooks/${ids.app}/events`, body, headers),
      202,
    );
  };
  const events = async (session: string) =>
    (
      await expectJson<Session>(
        hooks.call(`/apps/${ids.app}/users/baton:webhook:hooks/sessions/${session}`),
        200,
      )
    ).events;
  return {
    ...ids,
    hooks,
    deliver,
    events,
    status: async (turnId: string) => (await hooks.turn(turnId)).status,
    /** The turn object's whole record (attempts, waits, place), read as the consumer reads it. */
    record: async (turnId: string) => {
      const record = env.WEBHOOK_TURNS && (await turnLedger(env.WEBHOOK_TURNS).turn(turnId)?.get());
      if (!record) throw new Error(`No turn ${turnId}`);
      return record;
    },
    /** The user id a hook's `userId` is stored under. */
    user: (userId: string) => `baton:webhook:${userId}`,
  };
}

const summary = (events: readonly Event[]) =>
  events.map((e) => {
    const part = e.content?.parts?.[0];
    return [e.author, part?.functionCall?.name ?? part?.functionResponse?.name ?? part?.text ?? e.errorCode];
  });

describe("the TURNS consumer", () => {
  it("moves a turn from queued to running to done, stores its events and delivers the signed result", async () => {
    const gate = new GateAgent({ name: "root" });
    const t = setup(() => gate, { resultPath: `/r/${crypto.randomUUID()}` });
    const { turnId } = await t.deliver("s-1", "hello");
    expect(await t.status(turnId)).toBe("queued");
    const consumed = t.hooks.consume();
    await gate.started.promise;
    expect(await t.status(turnId)).toBe("running");
    gate.open();
    expect(await consumed).toMatchObject({ acked: 1, retried: [] });
    expect(await t.status(turnId)).toBe("done");
    const stored = await t.events("s-1");
    expect(summary(stored)).toEqual([
      ["user", "hello"],
      ["root", "gate answers: hello"],
    ]);
    expect(new Set(stored.map((e) => e.invocationId)).size).toBe(1);
  });

  it("delivers the final response to onResult signed with Standard Webhooks, retrying a failing receiver", async () => {
    const gate = new GateAgent({ name: "root" });
    const id = crypto.randomUUID();
    const t = setup(() => gate, { resultPath: `/r/${id}/fail-2` });
    gate.open();
    const { turnId } = await t.deliver("s-r", "result please");
    expect(await t.hooks.consume()).toMatchObject({ acked: 1 });
    const received = await (await fetch(`${inject("resultReceiverUrl")}/r/${id}`)).json();
    expect(received).toEqual(
      [503, 503, 204].map((status) => ({
        webhookId: turnId,
        timestamp: NOW,
        status,
        verified: true,
        body: expect.objectContaining({
          type: "turn.done",
          turnId,
          appName: t.app,
          userId: "baton:webhook:hooks",
          sessionId: "s-r",
          text: "gate answers: result please",
        }),
      })),
    );
  });

  it("retries a turn whose model fails, then finishes it without storing the user event twice or redoing stored steps", async () => {
    const fake = fakeModelServer();
    const t = setup((app) => seedApp(app).rootAgent);
    const { turnId } = await t.deliver("s-2", "TRANSFER please");
    const down = { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl({ down: ["sub-model"] }) };
    const first = await t.hooks.consume(t.hooks.sent, 1, down);
    expect(first).toMatchObject({ acked: 0, retried: [{ delaySeconds: 5 }] });
    expect(await t.status(turnId)).toBe("queued");
    const afterFirst = (await fake.calls()).calls.length;
    expect(afterFirst).toBe(1 + MODEL_RETRY.attempts);

    const second = await t.hooks.consume(t.hooks.sent, 2, { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() });
    expect(second).toMatchObject({ acked: 1, retried: [] });
    expect(await t.status(turnId)).toBe("done");
    // The second attempt resumed at sub_agent: root's transfer was stored and is not asked for again.
    expect((await fake.calls()).calls.slice(afterFirst).map((c) => c.model)).toEqual(["sub-model"]);
    const stored = await t.events("s-2");
    expect(summary(stored)).toEqual([
      ["user", "TRANSFER please"],
      ["root", "transfer_to_agent"],
      ["root", "transfer_to_agent"],
      ["sub_agent", "MODEL_UNAVAILABLE"],
      ["sub_agent", expect.stringMatching(/^sub-model answers:/)],
    ]);
    expect(new Set(stored.map((e) => e.invocationId)).size).toBe(1);
    expect(new Set(stored.map((e) => e.id)).size).toBe(stored.length);
  });

  it("retries with doubling delays up to the cap", async () => {
    const fake = fakeModelServer();
    const t = setup((app) => seedApp(app).rootAgent, {
      vars: { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl({ down: ["root-model"] }) },
    });
    await t.deliver("s-3", "hi");
    const delays = [];
    for (const attempt of [1, 2, 3, 7, 12])
      delays.push((await t.hooks.consume(t.hooks.sent, attempt)).retried[0]?.delaySeconds);
    expect(delays).toEqual([5, 10, 20, 300, 300]);
  });

  it("sends a turn that keeps failing to the dead-letter queue, where it is marked failed and its session shows why", async () => {
    const fake = fakeModelServer();
    const t = setup((app) => seedApp(app).rootAgent, {
      vars: { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl({ down: ["root-model"] }) },
    });
    const { turnId } = await t.deliver("s-4", "doomed");
    expect((await t.hooks.consume(t.hooks.sent, 6)).retried).toHaveLength(1);
    // The queue moves it to the dead-letter queue after max_retries; its consumer gets the same message.
    expect(await t.hooks.deadLetter(t.hooks.sent)).toMatchObject({ acked: 1, retried: [] });
    expect(await t.status(turnId)).toBe("failed");
    const stored = await t.events("s-4");
    const last = stored.at(-1);
    expect(last).toMatchObject({ author: "root", errorCode: "TURN_DEAD_LETTERED" });
    expect(last?.errorMessage).toMatch(/went to the dead-letter queue\. Last error: MODEL_UNAVAILABLE/);
    expect(last?.content).toBeUndefined();
    // A redelivered dead letter, or a late redelivery of the turn itself, changes nothing.
    await t.hooks.deadLetter(t.hooks.sent);
    expect(await t.hooks.consume(t.hooks.sent, 7)).toMatchObject({ acked: 1, retried: [] });
    expect(await t.events("s-4")).toEqual(stored);
  });

  it("acks a dead letter that names no turn, and retries a TURNS message that is not a turn message", async () => {
    const t = setup((app) => seedApp(app).rootAgent);
    expect(await t.hooks.deadLetter([{ turnId: "f".repeat(64) }, "garbage"])).toMatchObject({ acked: 2 });
    expect((await t.hooks.consume([{ nope: 1 }], 1)).retried).toHaveLength(1);
  });

  it("makes a turn behind a running one wait: acked, sent again with a jittered growing delay, counted as no attempt, then run", async () => {
    const gate = new GateAgent({ name: "root" });
    const t = setup(() => gate);
    const first = await t.deliver("s-5", "first");
    const running = t.hooks.consume([{ turnId: first.turnId }]);
    await gate.started.promise;
    const second = await t.deliver("s-5", "second");
    const sentBefore = t.hooks.sent.length;
    // random() is 0.5: a wait of ceiling × 3/4, the ceiling doubling from busyDelaySeconds (10 s).
    expect(await t.hooks.consume([{ turnId: second.turnId }])).toMatchObject({ acked: 1, retried: [] });
    expect(t.hooks.sent.slice(sentBefore)).toEqual([{ turnId: second.turnId }]);
    expect(t.hooks.delays.slice(sentBefore)).toEqual([8]);
    expect(await t.hooks.consume([{ turnId: second.turnId }], 6)).toMatchObject({ acked: 1, retried: [] });
    expect(t.hooks.delays.slice(sentBefore)).toEqual([8, 15]);
    expect(await t.status(second.turnId)).toBe("queued");
    expect(await t.record(second.turnId)).toMatchObject({ attempts: 0, waits: 2, place: 2 });
    expect(summary(await t.events("s-5"))).toEqual([["user", "first"]]);
    gate.open();
    await running;
    // The first turn's end sends the next turn of its line at once, with no delay.
    expect(t.hooks.sent.at(-1)).toEqual({ turnId: second.turnId });
    expect(t.hooks.delays.at(-1)).toBeUndefined();
    expect(await t.hooks.consume([{ turnId: second.turnId }])).toMatchObject({ acked: 1 });
    expect(await t.record(second.turnId)).toMatchObject({ status: "done", attempts: 1, waits: 2 });
    expect(summary(await t.events("s-5"))).toEqual([
      ["user", "first"],
      ["root", "gate answers: first"],
      ["user", "second"],
      ["root", "gate answers: second"],
    ]);
  });

  it("makes a turn whose session an HTTP turn holds wait without counting an attempt", async () => {
    const gate = new GateAgent({ name: "root" });
    const t = setup(() => gate);
    const sessions = `/apps/${t.app}/users/${t.user("hooks")}/sessions`;
    await expectJson(
      t.hooks.call(sessions, { method: "POST", body: JSON.stringify({ sessionId: "s-6" }) }),
      200,
    );
    const http = t.hooks.call("/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        appName: t.app,
        userId: t.user("hooks"),
        sessionId: "s-6",
        newMessage: { role: "user", parts: [{ text: "over HTTP" }] },
      }),
    });
    await gate.started.promise;
    const queued = await t.deliver("s-6", "from the hook");
    expect(await t.hooks.consume([{ turnId: queued.turnId }])).toMatchObject({ acked: 1, retried: [] });
    expect(await t.record(queued.turnId)).toMatchObject({ status: "queued", attempts: 0, waits: 1 });
    gate.open();
    expect((await http).status).toBe(200);
    expect(await t.hooks.consume([{ turnId: queued.turnId }])).toMatchObject({ acked: 1 });
    expect(await t.status(queued.turnId)).toBe("done");
  });

  it("runs ten deliveries to one session in the order they were accepted, every one done, none dead-lettered", {
    timeout: 60_000,
  }, async () => {
    const gate = new GateAgent({ name: "root" });
    gate.open();
    const t = setup(() => gate);
    const turnIds = (
      await Promise.all(Array.from({ length: 10 }, (_, i) => t.deliver("s-7", `comment ${i}`)))
    ).map((accepted) => accepted.turnId);
    const byPlace = await placed(t, turnIds);
    // The real queue hands over every sent message; here each round hands over what was sent since the last.
    let handed = 0;
    let rounds = 0;
    while (handed < t.hooks.sent.length) {
      const batch = t.hooks.sent.slice(handed);
      handed = t.hooks.sent.length;
      const result = await t.hooks.consume(batch);
      expect(result.retried).toEqual([]);
      rounds++;
    }
    expect(rounds).toBeLessThan(30);
    for (const turnId of turnIds)
      expect(await t.record(turnId)).toMatchObject({ status: "done", attempts: 1 });
    const users = (await t.events("s-7")).filter((e) => e.author === "user");
    expect(users.map((e) => e.content?.parts?.[0]?.text)).toEqual(byPlace.map((p) => p.text));
  });
});

/** The deliveries' texts in the order of their places in the session's line. */
async function placed(t: ReturnType<typeof setup>, turnIds: readonly string[]) {
  const records = await Promise.all(turnIds.map((turnId) => t.record(turnId)));
  expect(new Set(records.map((r) => r.place)).size).toBe(turnIds.length);
  return records
    .map((r) => ({ place: r.place ?? 0, text: r.request.newMessage.parts?.[0]?.text }))
    .sort((a, b) => a.place - b.place);
}
