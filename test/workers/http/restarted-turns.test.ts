import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionResponsesOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import { interruptedMessage, unansweredMessage } from "../../../src/core/open-calls.js";
import type { Session } from "../../../src/core/session.js";
import type { DoubleTextingConfig } from "../../../src/core/session-store.js";
import { defineApp } from "../../../src/runner/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { MAX_RESUMES } from "../../../src/turns/resume-concern.js";
import { signal, until } from "../../support/signal.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";
import { callWorker, expectJson, freshIds, noSleep, runBody } from "../support/http.js";
import { gatedModel, newLifetime, sessionStub } from "../support/turn-control.js";

const services = { sleep: noSleep, log: () => undefined };

/** The object restarts: everything in its memory is lost, its SQLite and its alarm stay. */
const restart = (key: Parameters<typeof sessionStub>[0]) =>
  expect(
    runInDurableObject(sessionStub(key), (_instance, state) => state.abort("restarted by the test")),
  ).rejects.toThrow();

/** An app on a gated model, its session made; `run` posts a message and answers its status and body. */
async function gatedApp(doubleTexting: DoubleTextingConfig) {
  const { app, user, session } = freshIds("texting");
  const key = { appName: app, userId: user, sessionId: session };
  const gated = gatedModel();
  const root = new LlmAgent({ name: "root", model: gated.model });
  const call = callWorker({ apps: [defineApp({ name: app, rootAgent: root, doubleTexting })], services });
  await expectJson(
    call(`/apps/${app}/users/${user}/sessions`, { method: "POST", json: { sessionId: session } }),
    200,
  );
  const run = async (text: string) => {
    const res = await call("/run", { method: "POST", json: runBody(app, user, session, text) });
    return { status: res.status, body: (await res.json()) as Event[] | { code: string } };
  };
  const stored = async () =>
    (await expectJson<Session>(call(`/apps/${app}/users/${user}/sessions/${session}`), 200)).events.map(
      (e) => [e.author, (e.content?.parts ?? []).map((p) => p.text?.split(".")[0]).join("|")],
    );
  return { key, gated, run, stored };
}

/** Resolves once `n` turns wait in the object's stored line. */
const untilWaiting = (key: Parameters<typeof sessionStub>[0], n: number) =>
  until(() =>
    runInDurableObject(sessionStub(key), (_instance, state) =>
      state.storage.sql.exec("SELECT 1 FROM waiting_turns WHERE outcome IS NULL").toArray().length >= n
        ? true
        : undefined,
    ),
  );

describe("double texting in the session object (decision 047)", () => {
  it("latest: the messages a newer one replaced are answered 409 message_replaced and never stored", async () => {
    const t = await gatedApp("latest");
    const first = t.run("one");
    await t.gated.waiting(1);
    const two = t.run("two");
    await untilWaiting(t.key, 1);
    const three = t.run("three");
    expect(await two).toMatchObject({ status: 409, body: { code: "message_replaced" } });
    t.gated.open();
    expect((await first).status).toBe(200);
    expect((await three).status).toBe(200);
    expect(t.gated.asked).toEqual(["one", "three"]);
    expect(await t.stored()).toEqual([
      ["user", "one"],
      ["root", expect.any(String)],
      ["user", "three"],
      ["root", expect.any(String)],
    ]);
  });

  it("merge: messages that waited together are one user event and one turn, whose events answer each of them", async () => {
    const t = await gatedApp("merge");
    const first = t.run("one");
    await t.gated.waiting(1);
    const two = t.run("two");
    await untilWaiting(t.key, 1);
    const three = t.run("three");
    await untilWaiting(t.key, 2);
    t.gated.open();
    const [a, b] = [await two, await three];
    expect((await first).status).toBe(200);
    expect(a.status).toBe(200);
    expect(b).toEqual(a);
    expect(t.gated.asked).toEqual(["one", "twothree"]);
    expect(await t.stored()).toEqual([
      ["user", "one"],
      ["root", expect.any(String)],
      ["user", "two|three"],
      ["root", expect.any(String)],
    ]);
  });

  it("merge across a restart of the object: the dead turn resumes first, then the messages that waited run as one turn", async () => {
    const t = await gatedApp("merge");
    const first = t.run("one");
    await t.gated.waiting(1);
    const waiting = [t.run("two"), t.run("three")];
    await untilWaiting(t.key, 2);
    await restart(t.key);
    await Promise.all([first, ...waiting].map((r) => r.catch(() => undefined)));
    // Any call starts the object again: it resumes the dead turn and runs the orphans, no lease waited out.
    await t.stored();
    await t.gated.waiting(2);
    t.gated.open();
    await until(async () => ((await t.stored()).length === 4 ? true : undefined));
    await sessionStub(t.key).turnsSettled();
    expect(t.gated.asked).toEqual(["one", "one", "twothree"]);
    expect(await t.stored()).toEqual([
      ["user", "one"],
      ["root", expect.any(String)],
      ["user", "two|three"],
      ["root", expect.any(String)],
    ]);
  });

  it("merge with a debounce window: two messages sent together to a free session are one turn", async () => {
    const t = await gatedApp({ mode: "merge", debounceMs: 50 });
    t.gated.open();
    const [a, b] = await Promise.all([t.run("one"), t.run("two")]);
    expect(a.status).toBe(200);
    expect(b).toEqual(a);
    expect(t.gated.asked).toEqual(["onetwo"]);
  });
});

/** `pay` (not idempotent) waits at a gate the test never opens; `lookup` (idempotent) answers at once. */
function stuckPay() {
  const calls = { pay: 0, lookup: 0 };
  const never = signal();
  const pay = functionTool({
    name: "pay",
    description: "Charges the card",
    parameters: z.object({}),
    execute: async () => {
      calls.pay += 1;
      await never.promise;
      return { paid: true };
    },
  });
  const lookup = functionTool({
    name: "lookup",
    description: "Reads the balance",
    parameters: z.object({}),
    idempotent: true,
    execute: () => ({ balance: 10, reads: ++calls.lookup }),
  });
  return { calls, tools: [pay, lookup] };
}

/** A model that asks for `pay` and `lookup` once, then answers in text. */
const payThenAnswer = () =>
  scriptedModel((index) =>
    index === 0
      ? {
          calls: [
            { name: "pay", args: {}, id: "c-pay" },
            { name: "lookup", args: {}, id: "c-lookup" },
          ],
        }
      : { text: "done" },
  );

describe("a turn that ran in its object, when the object restarts (decision 047)", () => {
  it("resumes at once, with its lease still live: the open calls are answered once, the payment never runs twice", async () => {
    const { app, user, session } = freshIds("restart");
    const key = { appName: app, userId: user, sessionId: session };
    const { calls, tools } = stuckPay();
    const root = new LlmAgent({ name: "root", model: payThenAnswer(), tools });
    const call = callWorker({ apps: [defineApp({ name: app, rootAgent: root })], services });
    await expectJson(
      call(`/apps/${app}/users/${user}/sessions`, { method: "POST", json: { sessionId: session } }),
      200,
    );
    const cut = call("/run", { method: "POST", json: runBody(app, user, session, "pay it") }).catch(
      () => undefined,
    );
    await until(() => (calls.pay > 0 ? true : undefined));
    await restart(key);
    await cut;
    const started = Date.now();
    const done = await until(async () => {
      const events = (await expectJson<Session>(call(`/apps/${app}/users/${user}/sessions/${session}`), 200))
        .events;
      return events.at(-1)?.content?.parts?.[0]?.text === "done" ? events : undefined;
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(calls).toEqual({ pay: 1, lookup: 2 });
    expect(done.every((e) => e.invocationId === done[0]?.invocationId)).toBe(true);
    expect(functionResponsesOf(done[2]?.content)).toEqual([
      { id: "c-pay", name: "pay", response: { error: interruptedMessage("pay") } },
      { id: "c-lookup", name: "lookup", response: { balance: 10, reads: 2 } },
    ]);
    // The session is free: the next message is answered.
    await sessionStub(key).turnsSettled();
    expect((await call("/run", { method: "POST", json: runBody(app, user, session, "again") })).status).toBe(
      200,
    );
  });

  it("gives a turn up after its last resume: answers its open calls, records TURN_NOT_RESUMED, and frees the session", async () => {
    const { app, user } = freshIds("given-up");
    const store = new DurableObjectSessionStore(env);
    const key = { appName: app, userId: user, sessionId: "s1" };
    await store.createSession(key);
    const eventEnv = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => Date.now() } };
    const { createEvent } = await import("../../../src/core/event.js");
    const invocationId = "e-given-up";
    const userEvent = createEvent(
      { invocationId, author: "user", content: { role: "user", parts: [{ text: "x" }] } },
      eventEnv,
    );
    const { lease } = await store.beginTurn(key, userEvent, {}, [], { agent: "root" });
    const parts = [{ functionCall: { id: "c-pay", name: "pay", args: {} } }];
    await store.appendEvent(
      key,
      createEvent({ invocationId, author: "root", content: { role: "model", parts } }, eventEnv),
      { lease },
    );
    await newLifetime(key);
    // Its resumes are used up: the next time the alarm finds it dead, it is given up.
    await runInDurableObject(sessionStub(key), (_instance, state) => {
      const marker = state.storage.kv.get<Record<string, unknown>>("turn:marker");
      state.storage.kv.put("turn:marker", { ...marker, resumes: MAX_RESUMES });
      state.storage.sql.exec("UPDATE session SET lease_expires_at = 0 WHERE id = 1");
    });
    await restart(key);
    expect(await runDurableObjectAlarm(sessionStub(key))).toBe(true);
    const events = (await store.getSession(key))?.events ?? [];
    expect(events.map((e) => [e.author, e.errorCode])).toEqual([
      ["user", undefined],
      ["root", undefined],
      ["root", undefined],
      ["root", "TURN_NOT_RESUMED"],
    ]);
    expect(functionResponsesOf(events[2]?.content)).toEqual([
      { id: "c-pay", name: "pay", response: { error: unansweredMessage("pay") } },
    ]);
    await expect(
      store.beginTurn(key, createEvent({ invocationId: "e-next", author: "user" }, eventEnv)),
    ).resolves.toMatchObject({
      resumed: false,
    });
  });

  it("answers the calls a turn left open when it is canceled mid-tool, before its TURN_CANCELED event", async () => {
    const { app, user, session } = freshIds("cancel-tool");
    const key = { appName: app, userId: user, sessionId: session };
    const { calls, tools } = stuckPay();
    const root = new LlmAgent({ name: "root", model: payThenAnswer(), tools });
    const call = callWorker({ apps: [defineApp({ name: app, rootAgent: root })], services });
    await expectJson(
      call(`/apps/${app}/users/${user}/sessions`, { method: "POST", json: { sessionId: session } }),
      200,
    );
    const running = call("/run", { method: "POST", json: runBody(app, user, session, "pay it") });
    await until(() => (calls.pay > 0 ? true : undefined));
    await expectJson(
      call(`/apps/${app}/users/${user}/sessions/${session}/cancel`, { method: "POST", json: {} }),
      200,
    );
    await running;
    await sessionStub(key).turnsSettled();
    const events = (await expectJson<Session>(call(`/apps/${app}/users/${user}/sessions/${session}`), 200))
      .events;
    expect(events.map((e) => [e.author, e.errorCode])).toEqual([
      ["user", undefined],
      ["root", undefined],
      ["root", undefined],
      ["root", "TURN_CANCELED"],
    ]);
    expect(
      functionResponsesOf(events[2]?.content)
        .map((r) => r.id)
        .sort(),
    ).toEqual(["c-lookup", "c-pay"]);
  });
});
