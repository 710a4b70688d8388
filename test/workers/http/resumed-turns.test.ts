import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { interruptedMessage } from "../../../src/agents/interrupted-calls.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionResponsesOf, userText } from "../../../src/core/content.js";
import { createEvent, type Event } from "../../../src/core/event.js";
import { createDemoModel } from "../../../src/demo/model.js";
import { defineApp } from "../../../src/runner/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { DEFAULT_LEASE_TTL_MS } from "../../../src/session/lease.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";
import { elapseLease, newLifetime } from "../support/turn-control.js";

const services = { sleep: noSleep, log: () => undefined };
const eventEnv = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => Date.now() } };

describe("resuming an invocation after a crash", () => {
  it("answers the calls the crash left open: an idempotent tool runs again, any other gets an interrupted error and never runs twice", async () => {
    const { app, user, session } = freshIds("resume");
    const calls = { pay: 0, lookup: 0 };
    const pay = functionTool({
      name: "pay",
      description: "Charges the card",
      parameters: z.object({}),
      execute: () => ({ paid: ++calls.pay }),
    });
    const lookup = functionTool({
      name: "lookup",
      description: "Reads the balance",
      parameters: z.object({}),
      idempotent: true,
      execute: () => ({ balance: 10, reads: ++calls.lookup }),
    });
    const root = new LlmAgent({ name: "root", model: createDemoModel("resumer"), tools: [pay, lookup] });
    const call = callWorker({ apps: [defineApp({ name: app, rootAgent: root })], services });
    const sessions = sessionsOf(call, app, user);
    await sessions.create({ sessionId: session });
    const key = { appName: app, userId: user, sessionId: session };

    // A turn that stored its model's two calls, then died before either answered (its isolate gone).
    const store = new DurableObjectSessionStore(env);
    const invocationId = `e-crash-${crypto.randomUUID()}`;
    const userEvent = createEvent({ invocationId, author: "user", content: userText("pay it") }, eventEnv);
    const { lease } = await store.beginTurn(key, userEvent);
    const parts = [
      { functionCall: { id: "c-pay", name: "pay", args: {} } },
      { functionCall: { id: "c-lookup", name: "lookup", args: {} } },
    ];
    const callEvent = createEvent(
      { invocationId, author: "root", content: { role: "model", parts } },
      eventEnv,
    );
    await store.appendEvent(key, callEvent, { lease });
    await newLifetime(key);
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
