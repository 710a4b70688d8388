import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { interruptedMessage } from "../../../src/agents/interrupted-calls.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionResponsesOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { DEFAULT_LEASE_TTL_MS } from "../../../src/session/lease.js";
import { turnLedger } from "../../../src/webhooks/turn-ledger.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";
import { expectJson, freshIds, noSleep } from "../support/http.js";
import { crashMidTools, elapseLease, payAndLookup, sessionStub } from "../support/turn-control.js";
import { hookWorker } from "../support/webhooks.js";

describe("a turn whose isolate died", () => {
  it("is resumed by its session object's alarm through the turn queue: the open calls are answered once, and the turn finishes", async () => {
    const { app, user, session } = freshIds("crashed");
    const { calls, tools } = payAndLookup();
    const model = scriptedModel([{ text: "Paid, or told you why not." }]);
    const root = new LlmAgent({ name: "root", model, tools });
    const worker = hookWorker({
      apps: [defineApp({ name: app, rootAgent: root })],
      services: { sleep: noSleep },
    });
    const key = { appName: app, userId: user, sessionId: session };
    const store = new DurableObjectSessionStore(env);
    await store.createSession(key);

    // The turn stored its model's calls, then its isolate died: no response, no endTurn, ever.
    const invocationId = `e-died-${crypto.randomUUID()}`;
    const { userEvent } = await crashMidTools(store, key, invocationId);

    // Before the lease lapses the alarm resumes nothing; after, it queues the invocation again.
    if (!env.WEBHOOK_TURNS) throw new Error("wrangler.toml binds WEBHOOK_TURNS");
    const turnId = turnLedger(env.WEBHOOK_TURNS).turnIdOf(
      app,
      "resume",
      invocationId,
      `${invocationId}#1`,
      key,
    );
    expect(await runDurableObjectAlarm(sessionStub(key))).toBe(true);
    await expect(worker.turn(turnId)).rejects.toThrow();
    await elapseLease(key, DEFAULT_LEASE_TTL_MS + 2_000);
    expect(await runDurableObjectAlarm(sessionStub(key))).toBe(true);
    // It went to the object's queue (the test env's consumer-less TEST_TURNS), handed here to the Worker.
    expect(await worker.turn(turnId)).toMatchObject({ origin: "resume", status: "queued" });

    expect(await worker.consume([{ turnId }])).toMatchObject({ acked: 1, retried: [] });
    expect(calls).toEqual({ pay: 0, lookup: 1 });
    const stored = (
      await expectJson<Session>(worker.call(`/apps/${app}/users/${user}/sessions/${session}`), 200)
    ).events;
    expect(stored.filter((e: Event) => e.author === "user").map((e) => e.id)).toEqual([userEvent.id]);
    const [, , answers, final] = stored;
    expect(functionResponsesOf(answers?.content)).toEqual([
      { id: "c-pay", name: "pay", response: { error: interruptedMessage("pay") } },
      { id: "c-lookup", name: "lookup", response: { balance: 10, reads: 1 } },
    ]);
    expect(final).toMatchObject({
      invocationId,
      author: "root",
      content: { parts: [{ text: "Paid, or told you why not." }] },
    });
    expect(stored).toHaveLength(4);
    // The turn ended: nothing is marked, no alarm is left.
    expect(await runDurableObjectAlarm(sessionStub(key))).toBe(false);
  });
});
