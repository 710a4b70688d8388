import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { interruptedMessage } from "../../../src/agents/interrupted-calls.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionResponsesOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import { createDemoModel } from "../../../src/demo-model/model.js";
import { defineApp } from "../../../src/runner/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { DEFAULT_LEASE_TTL_MS } from "../../../src/session/lease.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";
import { crashMidTools, elapseLease, payAndLookup } from "../support/turn-control.js";

const services = { sleep: noSleep, log: () => undefined };

describe("resuming an invocation after a crash", () => {
  it("answers the calls the crash left open: an idempotent tool runs again, any other gets an interrupted error and never runs twice", async () => {
    const { app, user, session } = freshIds("resume");
    const { calls, tools } = payAndLookup();
    const root = new LlmAgent({ name: "root", model: createDemoModel("resumer"), tools });
    const call = callWorker({ apps: [defineApp({ name: app, rootAgent: root })], services });
    const sessions = sessionsOf(call, app, user);
    await sessions.create({ sessionId: session });
    const key = { appName: app, userId: user, sessionId: session };

    // A turn that stored its model's two calls, then died before either answered (its isolate gone).
    const store = new DurableObjectSessionStore(env);
    const invocationId = `e-crash-${crypto.randomUUID()}`;
    const { userEvent, callEvent } = await crashMidTools(store, key, invocationId);
    await elapseLease(key, DEFAULT_LEASE_TTL_MS);

    const resumed = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "ignored", { invocationId }) }),
      200,
    );
    expect(calls).toEqual({ pay: 0, lookup: 1 });
    expect(resumed.every((e) => e.invocationId === invocationId)).toBe(true);
    const [answers, ...rest] = resumed;
    expect(answers?.author).toBe("root");
    expect(functionResponsesOf(answers?.content)).toEqual([
      { id: "c-pay", name: "pay", response: { error: interruptedMessage("pay") } },
      { id: "c-lookup", name: "lookup", response: { balance: 10, reads: 1 } },
    ]);
    expect(rest.at(-1)).toMatchObject({ author: "root" });
    expect(rest.at(-1)?.errorCode).toBeUndefined();

    // The invocation ended: resuming it again runs nothing, and no tool runs a second time.
    const again = call("/run", {
      method: "POST",
      json: runBody(app, user, session, "ignored", { invocationId }),
    });
    expect(await expectJson(again, 200)).toEqual([]);
    expect(calls).toEqual({ pay: 0, lookup: 1 });
    const stored = await sessions.eventsOf(session);
    expect(stored.filter((e) => e.author === "user").map((e) => e.id)).toEqual([userEvent.id]);
    expect(stored.slice(0, 2).map((e) => e.id)).toEqual([userEvent.id, callEvent.id]);
    expect(stored.slice(2)).toEqual(resumed);
  });
});
