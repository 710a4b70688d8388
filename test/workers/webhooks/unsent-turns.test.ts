import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { userText } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import type { DoubleTexting } from "../../../src/core/session-store.js";
import { defineApp } from "../../../src/runner/app.js";
import { enqueueTurn } from "../../../src/webhooks/enqueue-turn.js";
import { type TurnNamespace, turnLedger } from "../../../src/webhooks/turn-ledger.js";
import type { TurnMessage } from "../../../src/webhooks/turn-record.js";
import { SEND_GRACE_MS, sendUnsent } from "../../../src/webhooks/unsent-turns.js";
import { GateAgent } from "../support/gate-agent.js";
import { expectJson, freshIds } from "../support/http.js";
import { hookServices, hookWorker, sessionTextHook, sign } from "../support/webhooks.js";

const KEY = `whsec_${btoa("unsent-turns-test-key")}`;
const NOW = 1_900_000_000;
const logs: string[] = [];
const services = hookServices(NOW, logs);

function turnNamespace(): TurnNamespace {
  if (!env.WEBHOOK_TURNS) throw new Error("wrangler.toml binds WEBHOOK_TURNS");
  return env.WEBHOOK_TURNS;
}

/** The shard object that holds a turn (its id's first two hex digits name it, decision 038). */
const shardOf = (turnId: string) =>
  turnNamespace().getByName(`turn-shard-${Number.parseInt(turnId.slice(0, 2), 16)}`);

/** An app whose Standard Webhooks hook maps `{ session, text }` to a turn of user `hooks`. */
function setup(doubleTexting?: DoubleTexting) {
  const ids = freshIds("unsent");
  const gate = new GateAgent({ name: "root" });
  const app = defineApp({
    name: ids.app,
    rootAgent: gate,
    ...(doubleTexting ? { doubleTexting } : {}),
    webhooks: [sessionTextHook()],
  });
  const hooks = hookWorker({ apps: [app], services }, { EVENTS_KEY: KEY });
  const body = JSON.stringify({ session: ids.session, text: "hello" });
  const deliveryId = `msg_${crypto.randomUUID()}`;
  return {
    ...ids,
    gate,
    hooks,
    /** The provider sends (or sends again) the one delivery. */
    deliver: () =>
      hooks.post(`/webhooks/${ids.app}/events`, body, sign.standardWebhooks(KEY, body, deliveryId, NOW)),
    /**
     * The Worker that got the delivery accepts it, then is cut off before its queue send answers: no
     * message went, and nothing withdrew the turn.
     */
    acceptThenCutOff: async () => {
      const ledger = turnLedger(turnNamespace());
      const cutOff = () => Promise.reject(new Error("the isolate was killed"));
      const claim = {
        appName: ids.app,
        origin: "webhook" as const,
        source: "events",
        deliveryId,
        turn: { userId: "baton:webhook:hooks", sessionId: ids.session, newMessage: userText("hello") },
      };
      await expect(
        enqueueTurn(claim, {
          ledger: { ...ledger, withdraw: cutOff },
          queue: { send: cutOff },
          ids: { uuid: () => crypto.randomUUID() },
        }),
      ).rejects.toThrow();
      return ledger.turnIdOf(ids.app, "webhook", "events", deliveryId, {
        appName: ids.app,
        userId: "baton:webhook:hooks",
        sessionId: ids.session,
      });
    },
    record: async (turnId: string) => turnLedger(turnNamespace()).turn(turnId)?.get(),
    events: async () =>
      (
        await expectJson<Session>(
          hooks.call(`/apps/${ids.app}/users/baton:webhook:hooks/sessions/${ids.session}`),
          200,
        )
      ).events,
  };
}

/** The turn's unsent row, as the shard's alarm reads it (`null` once its message is known to be sent). */
const unsentRow = (turnId: string) =>
  runInDurableObject(shardOf(turnId), (_instance, state) => {
    const rows = state.storage.sql.exec("SELECT tries FROM unsent WHERE turn_id = ?", turnId).toArray();
    return rows[0] ?? null;
  });

/** Its grace period passes (the row's due time moves back by it). */
const elapseGrace = (turnId: string) =>
  runInDurableObject(shardOf(turnId), (_instance, state) => {
    state.storage.sql.exec("UPDATE unsent SET due_at = due_at - ? WHERE turn_id = ?", SEND_GRACE_MS, turnId);
  });

const summary = (events: readonly Event[]) =>
  events.map((e) => [e.author, e.content?.parts?.[0]?.text ?? e.errorCode]);

describe("a delivery whose Worker was cut off between accepting it and sending its message", () => {
  it("is sent by its turn shard's alarm after the grace period, once, and its turn runs once", async () => {
    const t = setup();
    const turnId = await t.acceptThenCutOff();
    // The provider's retry finds the turn that stands: a duplicate, nothing enqueued.
    expect(await expectJson(t.deliver(), 200)).toMatchObject({ turnId });
    expect(t.hooks.sent).toEqual([]);
    expect(await t.record(turnId)).toMatchObject({ status: "queued", attempts: 0 });

    // Within the grace period the alarm sends nothing; after it, the shard sends the message.
    await runDurableObjectAlarm(shardOf(turnId));
    expect(await unsentRow(turnId)).toEqual({ tries: 0 });
    await elapseGrace(turnId);
    expect(await runDurableObjectAlarm(shardOf(turnId))).toBe(true);
    expect(await unsentRow(turnId)).toBeNull();

    // That message (on the test env's consumer-less queue) reaches the Worker's consumer: the turn runs.
    t.gate.open();
    expect(await t.hooks.consume([{ turnId }])).toMatchObject({ acked: 1, retried: [] });
    expect(await t.record(turnId)).toMatchObject({ status: "done", attempts: 1 });
    // A second copy (the first send went after all) runs nothing.
    expect(await t.hooks.consume([{ turnId }])).toMatchObject({ acked: 1, retried: [] });
    expect(summary(await t.events())).toEqual([
      ["user", "hello"],
      ["root", "gate answers: hello"],
    ]);
  });

  it("is sent exactly once by the shard, again after a refused send, and never for a confirmed send", async () => {
    const t = setup();
    const turnId = await t.acceptThenCutOff();
    const confirmed = await expectJson<{ turnId: string }>(setup().deliver(), 202);
    const sent: TurnMessage[] = [];
    let refusals = 1;
    const queue = {
      async send(message: TurnMessage) {
        if (refusals-- > 0) throw new Error("queue unavailable");
        sent.push(message);
      },
    };
    const lines: string[] = [];
    const sendDue = (turn: string, at: number) =>
      runInDurableObject(shardOf(turn), (_instance, state) =>
        sendUnsent(state.storage.sql, at, queue, (line) => void lines.push(line)),
      );
    const start = Date.now() + SEND_GRACE_MS;
    await sendDue(turnId, start);
    expect(sent.filter((m) => m.turnId === turnId)).toEqual([]);
    expect(await unsentRow(turnId)).toEqual({ tries: 1 });
    await sendDue(turnId, start + SEND_GRACE_MS);
    await sendDue(turnId, start + 10 * SEND_GRACE_MS);
    expect(sent.filter((m) => m.turnId === turnId)).toEqual([{ turnId }]);
    expect(await unsentRow(turnId)).toBeNull();
    // A delivery whose Worker confirmed its send leaves nothing for the shard.
    await sendDue(confirmed.turnId, start + 10 * SEND_GRACE_MS);
    expect(await unsentRow(confirmed.turnId)).toBeNull();
    expect(sent.filter((m) => m.turnId === confirmed.turnId)).toEqual([]);
  });

  it("lets a copy of the message that holds a running turn change nothing, even under `interrupt`", async () => {
    const t = setup("interrupt");
    const { turnId } = await expectJson<{ turnId: string }>(t.deliver(), 202);
    const running = t.hooks.consume([{ turnId }]);
    await t.gate.started.promise;
    const sentBefore = t.hooks.sent.length;
    // A copy of its message arrives while it runs (a message the shard sent, or the queue's at-least-once).
    expect(await t.hooks.consume([{ turnId }])).toMatchObject({ acked: 1, retried: [] });
    expect(t.hooks.sent.length).toBe(sentBefore);
    expect(await t.record(turnId)).toMatchObject({ status: "running", attempts: 1, waits: 0 });
    t.gate.open();
    expect(await running).toMatchObject({ acked: 1, retried: [] });
    expect(await t.record(turnId)).toMatchObject({ status: "done", attempts: 1 });
    expect(summary(await t.events())).toEqual([
      ["user", "hello"],
      ["root", "gate answers: hello"],
    ]);
  });
});
