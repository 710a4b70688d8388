import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import type { ScheduleConfig } from "../../../src/core/schedule.js";
import type { Session } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
import { GateAgent } from "../support/gate-agent.js";
import { expectJson, freshIds, noSleep } from "../support/http.js";
import { hookWorker } from "../support/webhooks.js";

const logs: string[] = [];
const services = { sleep: noSleep, log: (line: string) => void logs.push(line) };
const NINE_AM = Date.UTC(2026, 11, 2, 9, 0, 0);
const DAY_MS = 24 * 60 * 60 * 1000;

function setup(schedules: (app: string) => ScheduleConfig[]) {
  const ids = freshIds("cron");
  const gate = new GateAgent({ name: "root" });
  gate.open();
  const app = defineApp({ name: ids.app, rootAgent: gate, schedules: schedules(ids.app) });
  const worker = hookWorker({ apps: [app], services });
  // A schedule's sessions belong to Baton's reserved user of that name (decision 048).
  const session = async (userId: string, sessionId: string) =>
    expectJson<Session>(
      worker.call(`/apps/${ids.app}/users/baton:schedule:${userId}/sessions/${sessionId}`),
      200,
    );
  return { ...ids, worker, session };
}

const said = (events: readonly Event[]) => events.map((e) => [e.author, e.content?.parts?.[0]?.text]);

describe("cron schedules", () => {
  it("runs one turn for a firing delivered twice, with its status at /turns/:id", async () => {
    const t = setup(() => [
      { cron: "0 9 * * *", sessionId: "digest", userId: "cron", message: "daily digest" },
    ]);
    await t.worker.scheduled("0 9 * * *", NINE_AM);
    await t.worker.scheduled("0 9 * * *", NINE_AM);
    expect(t.worker.sent).toHaveLength(1);
    const [message] = t.worker.sent;
    if (!message) throw new Error("nothing was queued");
    expect(await t.worker.turn(message.turnId)).toMatchObject({
      status: "queued",
      origin: "schedule",
      userId: "baton:schedule:cron",
      sessionId: "digest",
    });
    // Queues deliver at least once: the message redelivered after its turn ran is acked and runs nothing.
    expect(await t.worker.consume([message])).toMatchObject({ acked: 1, retried: [] });
    expect(await t.worker.consume([message], 2)).toMatchObject({ acked: 1, retried: [] });
    expect((await t.worker.turn(message.turnId)).status).toBe("done");
    expect(said((await t.session("cron", "digest")).events)).toEqual([
      ["user", "daily digest"],
      ["root", "gate answers: daily digest"],
    ]);
  });

  it("gives each scheduled time its own turn, in the session the schedule picks for that firing", async () => {
    const t = setup(() => [
      {
        cron: "0  9 * * *",
        session: ({ scheduledTime }) => `day-${new Date(scheduledTime).toISOString().slice(0, 10)}`,
        userId: "cron",
        message: ({ scheduledTime }) => `digest for ${new Date(scheduledTime).toISOString().slice(0, 10)}`,
      },
    ]);
    await t.worker.scheduled("0 9 * * *", NINE_AM);
    await t.worker.scheduled("0 9 * * *", NINE_AM + DAY_MS);
    expect(t.worker.sent).toHaveLength(2);
    expect(await t.worker.consume()).toMatchObject({ acked: 2 });
    expect(said((await t.session("cron", "day-2026-12-03")).events)[0]).toEqual([
      "user",
      "digest for 2026-12-03",
    ]);
    expect((await t.session("cron", "day-2026-12-02")).events).toHaveLength(2);
  });

  it("fires only the schedules declared with the cron that fired, each as its own turn", async () => {
    const t = setup(() => [
      { name: "a", cron: "*/5 * * * *", sessionId: "a", userId: "cron", message: "every five" },
      { name: "b", cron: "*/5 * * * *", sessionId: "b", userId: "cron", message: "also every five" },
      { cron: "0 0 1 * *", sessionId: "monthly", userId: "cron", message: "monthly" },
    ]);
    await t.worker.scheduled("*/5 * * * *", NINE_AM);
    expect(t.worker.sent).toHaveLength(2);
    const turns = await Promise.all(t.worker.sent.map((m) => t.worker.turn(m.turnId)));
    expect(turns.map((turn) => turn.sessionId).sort()).toEqual(["a", "b"]);
    await t.worker.scheduled("15 * * * *", NINE_AM);
    expect(t.worker.sent).toHaveLength(2);
    expect(logs.some((line) => line.includes('Cron "15 * * * *" fired, but no app declares'))).toBe(true);
  });

  it("refuses schedules with a malformed cron, no session, two sessions or a repeated name", () => {
    const root = new GateAgent({ name: "root" });
    const app = (schedules: ScheduleConfig[]) => () =>
      defineApp({ name: "bad-cron", rootAgent: root, schedules });
    const base = { userId: "cron", message: "x" };
    expect(app([{ ...base, cron: "0 9 * * * *", sessionId: "s" }])).toThrow(/five-field cron/);
    expect(app([{ ...base, cron: "0 9 * * *" }])).toThrow(/exactly one of sessionId and session/);
    expect(app([{ ...base, cron: "0 9 * * *", sessionId: "s", session: () => "t" }])).toThrow(/exactly one/);
    expect(
      app([
        { ...base, cron: "0 9 * * *", sessionId: "s" },
        { ...base, cron: "0 9 * * *", sessionId: "t" },
      ]),
    ).toThrow(/Two schedules of app "bad-cron" are named "0 9 \* \* \*"/);
    expect(app([{ ...base, cron: "0 9 * * *", sessionId: "s", userId: "" }])).toThrow(/userId/);
  });

  it("reports a firing whose schedule cannot make its turn, and still queues the others", async () => {
    const t = setup(() => [
      { name: "broken", cron: "0 * * * *", session: () => "", userId: "cron", message: "x" },
      { name: "fine", cron: "0 * * * *", sessionId: "fine", userId: "cron", message: "y" },
    ]);
    await expect(t.worker.scheduled("0 * * * *", NINE_AM)).rejects.toThrow(/Schedule "broken".*sessionId/);
    expect(t.worker.sent).toHaveLength(1);
  });
});
