import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import { deferred } from "../support/gate-agent.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";
import { elapseLease, heldModel } from "../support/turn-control.js";

const TTL_MS = 150;

/** A worker whose sessions lease for `TTL_MS`, on an app whose model answers only when released. */
function setup() {
  const ids = freshIds("slow");
  const held = heldModel();
  const app = defineApp({ name: ids.app, rootAgent: new LlmAgent({ name: "root", model: held.model }) });
  const call = callWorker(
    { apps: [app], services: { sleep: noSleep, log: () => undefined } },
    { SESSION_LEASE_TTL_MS: String(TTL_MS) },
  );
  return { ...ids, held, call, sessions: sessionsOf(call, ids.app, ids.user) };
}

/** Real time passing: the lease can only lapse on the session object's own clock. */
const timePassed = (ms: number) => {
  const passed = deferred();
  setTimeout(() => passed.resolve(), ms);
  return passed.promise;
};

describe("leases outlive slow steps", () => {
  it("keeps the session through a model call of three times the lease TTL, and frees it after", async () => {
    const { app, user, session, held, call, sessions } = setup();
    await sessions.create({ sessionId: session });
    const pending = call("/run", { method: "POST", json: runBody(app, user, session, "slow") });
    await held.started;
    await timePassed(3 * TTL_MS);
    const meanwhile = call("/run", { method: "POST", json: runBody(app, user, session, "me too") });
    expect(await expectJson(meanwhile, 409)).toMatchObject({ code: "session_busy" });
    held.release();
    const events = await expectJson<Event[]>(pending, 200);
    expect(events.map((e) => e.errorCode)).toEqual([undefined]);
    expect((await sessions.eventsOf(session)).map((e) => e.author)).toEqual(["user", "root"]);
    await expectJson(call("/run", { method: "POST", json: runBody(app, user, session, "next") }), 200);
  });

  it("ends a turn whose lease lapsed anyway with a stored LEASE_LOST error event", async () => {
    const { app, user, session, held, call, sessions } = setup();
    await sessions.create({ sessionId: session });
    const key = { appName: app, userId: user, sessionId: session };
    const pending = call("/run", { method: "POST", json: runBody(app, user, session, "slow") });
    await held.started;
    await elapseLease(key, 10 * TTL_MS);
    await timePassed(TTL_MS);
    held.release();
    const events = await expectJson<Event[]>(pending, 200);
    expect(events.map((e) => e.errorCode)).toEqual(["LEASE_LOST"]);
    const stored = await sessions.eventsOf(session);
    expect(stored.map((e) => [e.author, e.errorCode])).toEqual([
      ["user", undefined],
      ["root", "LEASE_LOST"],
    ]);
  });
});
