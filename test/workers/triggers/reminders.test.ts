import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { manageRemindersTool, scheduleReminderTool } from "../../../src/agents/reminder-tools.js";
import type { Event } from "../../../src/core/event.js";
import type { Reminder } from "../../../src/core/reminder.js";
import type { Session, SessionKey } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
import { turnLedger } from "../../../src/webhooks/turn-ledger.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";
import { expectJson, freshIds, noSleep } from "../support/http.js";
import { sessionStub } from "../support/turn-control.js";
import { hookWorker } from "../support/webhooks.js";

const HOUR_S = 3600;

function turnNamespace() {
  if (!env.WEBHOOK_TURNS) throw new Error("wrangler.toml binds WEBHOOK_TURNS");
  return env.WEBHOOK_TURNS;
}
const SET_ANA = {
  calls: [
    { name: "set_reminder", args: { message: "Time to call Ana", delay_seconds: HOUR_S, cancel_key: "ana" } },
  ],
};

function setup(script: Parameters<typeof scriptedModel>[0]) {
  const ids = freshIds("remind");
  const model = scriptedModel(script);
  const rootAgent = new LlmAgent({
    name: "assistant",
    model,
    tools: [scheduleReminderTool(), manageRemindersTool()],
  });
  const worker = hookWorker({
    apps: [defineApp({ name: ids.app, rootAgent })],
    services: { sleep: noSleep },
  });
  const key: SessionKey = { appName: ids.app, userId: ids.user, sessionId: ids.session };
  const base = `/apps/${ids.app}/users/${ids.user}/sessions`;
  const json = (body: unknown) => ({
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  return {
    ...ids,
    key,
    worker,
    create: () => expectJson<Session>(worker.call(base, json({ sessionId: ids.session })), 200),
    read: () => expectJson<Session>(worker.call(`${base}/${ids.session}`), 200),
    say: (text: string) =>
      expectJson<Event[]>(
        worker.call(
          "/run",
          json({
            appName: ids.app,
            userId: ids.user,
            sessionId: ids.session,
            newMessage: { role: "user", parts: [{ text }] },
          }),
        ),
        200,
      ),
    pending: () => runInDurableObject(sessionStub(key), (instance) => instance.reminders()),
    /** Time passing for the session's reminders: each comes `ms` closer (as the object's clock sees it). */
    elapse: (ms: number) =>
      runInDurableObject(sessionStub(key), (_instance, state) => {
        state.storage.sql.exec("UPDATE reminders SET due_at = due_at - ?", ms);
      }),
    /** The turn a fired reminder queued (its id is the reminder's `(app, key, id)`). */
    turnOf: (reminder: Reminder) =>
      turnLedger(turnNamespace()).turnIdOf(
        ids.app,
        "reminder",
        reminder.key ?? reminder.id,
        reminder.id,
        key,
      ),
  };
}

const texts = (events: readonly Event[]) =>
  events.map((e) => [e.author, e.content?.parts?.[0]?.text ?? e.content?.parts?.[0]?.functionCall?.name]);

describe("reminders an agent sets", () => {
  it("fires the next turn of the session at the reminder's time, through the turn queue", async () => {
    const t = setup([SET_ANA, { text: "I will remind you in an hour." }, { text: "Calling Ana now." }]);
    await t.create();
    await t.say("Remind me in an hour to call Ana");
    const [reminder, ...others] = await t.pending();
    if (!reminder) throw new Error("no reminder was set");
    expect(others).toEqual([]);
    expect(reminder).toMatchObject({ key: "ana", message: "Time to call Ana" });
    // The dev UI's State tab shows it.
    expect((await t.read()).state._reminders).toEqual([
      {
        id: reminder.id,
        key: "ana",
        message: "Time to call Ana",
        dueAt: new Date(reminder.dueAt).toISOString(),
      },
    ]);

    // The alarm running early fires nothing and stays set.
    expect(await runDurableObjectAlarm(sessionStub(t.key))).toBe(true);
    expect(await t.pending()).toHaveLength(1);
    await expect(t.worker.turn(t.turnOf(reminder))).rejects.toThrow();

    await t.elapse(HOUR_S * 1000);
    expect(await runDurableObjectAlarm(sessionStub(t.key))).toBe(true);
    expect(await t.pending()).toEqual([]);
    const turnId = t.turnOf(reminder);
    expect(await t.worker.turn(turnId)).toMatchObject({
      origin: "reminder",
      status: "queued",
      sessionId: t.session,
    });
    expect(await t.worker.consume([{ turnId }])).toMatchObject({ acked: 1, retried: [] });
    const after = await t.read();
    expect(texts(after.events).slice(-2)).toEqual([
      ["user", "Time to call Ana"],
      ["assistant", "Calling Ana now."],
    ]);
    expect(after.state._reminders).toEqual([]);
    // Nothing is left to fire.
    expect(await runDurableObjectAlarm(sessionStub(t.key))).toBe(false);
  });

  it("keeps a reminder through an eviction of the session's object between setting and firing", async () => {
    const t = setup([SET_ANA, { text: "Noted." }, { text: "Calling Ana now." }]);
    await t.create();
    await t.say("Remind me in an hour to call Ana");
    const [reminder] = await t.pending();
    if (!reminder) throw new Error("no reminder was set");
    // A restart: the object is reset, everything in memory is lost; its SQLite and its alarm stay.
    await expect(
      runInDurableObject(sessionStub(t.key), (_instance, state) => state.abort("evicted by the test")),
    ).rejects.toThrow();
    await t.elapse(HOUR_S * 1000);
    expect(await runDurableObjectAlarm(sessionStub(t.key))).toBe(true);
    const turnId = t.turnOf(reminder);
    expect(await t.worker.consume([{ turnId }])).toMatchObject({ acked: 1 });
    expect(texts((await t.read()).events).slice(-2)).toEqual([
      ["user", "Time to call Ana"],
      ["assistant", "Calling Ana now."],
    ]);
  });

  it("is cancelled by the cancel tool: nothing fires", async () => {
    const t = setup([
      SET_ANA,
      { text: "Noted." },
      { calls: [{ name: "manage_reminders", args: { cancel: "ana" } }] },
      { text: "Cancelled." },
    ]);
    await t.create();
    await t.say("Remind me in an hour to call Ana");
    const [reminder] = await t.pending();
    if (!reminder) throw new Error("no reminder was set");
    const events = await t.say("Never mind, do not remind me");
    const answer = events.find((e) => e.content?.parts?.[0]?.functionResponse?.name === "manage_reminders");
    expect(answer?.content?.parts?.[0]?.functionResponse?.response).toMatchObject({
      cancelled: { cancel_key: "ana", message: "Time to call Ana" },
      pending: [],
    });
    expect(await t.pending()).toEqual([]);
    await t.elapse(HOUR_S * 1000);
    // No reminder left, so no alarm either.
    expect(await runDurableObjectAlarm(sessionStub(t.key))).toBe(false);
    await expect(t.worker.turn(t.turnOf(reminder))).rejects.toThrow();
  });

  it("drops the reminders of a deleted session", async () => {
    const t = setup([SET_ANA, { text: "Noted." }]);
    await t.create();
    await t.say("Remind me in an hour to call Ana");
    expect(await t.pending()).toHaveLength(1);
    const deleted = await t.worker.call(`/apps/${t.app}/users/${t.user}/sessions/${t.session}`, {
      method: "DELETE",
    });
    expect(deleted.status).toBeLessThan(300);
    expect(await t.pending()).toEqual([]);
    expect(await runDurableObjectAlarm(sessionStub(t.key))).toBe(false);
  });
});
