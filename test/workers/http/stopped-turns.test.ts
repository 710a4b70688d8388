import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import type { DoubleTexting } from "../../../src/core/session-store.js";
import { defineApp } from "../../../src/runner/app.js";
import {
  callWorker,
  expectJson,
  freshIds,
  noSleep,
  runBody,
  sessionsOf,
  sseEvents,
} from "../support/http.js";
import { gatedModel } from "../support/turn-control.js";

const services = { sleep: noSleep, log: () => undefined };

/** A Worker serving one app whose root agent's model waits at a gate; the session is made. */
async function gatedWorker(prefix: string, doubleTexting?: DoubleTexting) {
  const { app, user, session } = freshIds(prefix);
  const gated = gatedModel();
  const root = new LlmAgent({ name: "root", model: gated.model });
  const call = callWorker({
    apps: [defineApp({ name: app, rootAgent: root, ...(doubleTexting ? { doubleTexting } : {}) })],
    services,
  });
  const sessions = sessionsOf(call, app, user);
  await sessions.create({ sessionId: session });
  const run = (text: string, path = "/run") =>
    call(path, { method: "POST", json: runBody(app, user, session, text) });
  const cancel = () => call(`/apps/${app}/users/${user}/sessions/${session}/cancel`, { method: "POST" });
  const stored = async () =>
    (await sessions.eventsOf(session)).map((e) => [
      e.author,
      e.errorCode ?? e.content?.parts?.[0]?.text?.split(".")[0],
    ]);
  return { gated, run, cancel, stored, app };
}

describe("stopping a turn", () => {
  it("cancels a turn during a slow model call: the call is aborted, the cancel is stored, the session is free at once", async () => {
    const { gated, run, cancel, stored } = await gatedWorker("stop");
    const pending = run("slow one", "/run_sse");
    await gated.waiting(1);

    const started = performance.now();
    const answer = await expectJson<{ canceled: boolean; event: Event }>(cancel(), 200);
    const cancelMs = performance.now() - started;
    expect(answer).toMatchObject({ canceled: true, event: { author: "root", errorCode: "TURN_CANCELED" } });
    expect(cancelMs).toBeLessThan(1000);

    // The stream ends with the stored cancel event; the model call saw the abort.
    const frames = await sseEvents(await pending);
    expect(frames.map((e) => e.errorCode)).toEqual(["TURN_CANCELED"]);
    expect(frames[0]?.id).toBe(answer.event.id);
    expect(gated.counts.aborted).toBe(1);

    gated.open();
    const next = await expectJson<Event[]>(run("next"), 200);
    expect(next.map((e) => e.author)).toEqual(["root"]);
    expect(await stored()).toEqual([
      ["user", "slow one"],
      ["root", "TURN_CANCELED"],
      ["user", "next"],
      ["root", next[0]?.content?.parts?.[0]?.text?.split(".")[0]],
    ]);
  });

  it("answers canceled: false when no turn runs, and stores nothing", async () => {
    const { cancel, stored } = await gatedWorker("idle");
    expect(await expectJson(cancel(), 200)).toEqual({ canceled: false, event: null });
    expect(await stored()).toEqual([]);
  });
});

describe("double-texting", () => {
  it("rejects a second message while a turn runs by default (409 session_busy)", async () => {
    const { gated, run } = await gatedWorker("reject");
    const first = run("first");
    await gated.waiting(1);
    expect(await expectJson(run("second"), 409)).toMatchObject({ code: "session_busy" });
    gated.open();
    expect((await first).status).toBe(200);
  });

  it("enqueue runs three quick messages one after another, in the order they came", async () => {
    const { gated, run, stored } = await gatedWorker("enqueue", "enqueue");
    const first = run("one");
    await gated.waiting(1);
    const second = run("two");
    // Each waits in the session's line before the next is sent, so arrival order is known.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const third = run("three");
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(gated.counts.calls).toBe(1);
    gated.open();
    for (const turn of [first, second, third]) expect((await turn).status).toBe(200);
    expect(gated.asked).toEqual(["one", "two", "three"]);
    expect((await stored()).map(([author]) => author)).toEqual([
      "user",
      "root",
      "user",
      "root",
      "user",
      "root",
    ]);
    expect((await stored()).filter(([a]) => a === "user").map(([, text]) => text)).toEqual([
      "one",
      "two",
      "three",
    ]);
  });

  it("interrupt stops the running turn with a stored cancel and answers the newest message", async () => {
    const { gated, run, stored } = await gatedWorker("interrupt", "interrupt");
    const first = run("old question", "/run_sse");
    await gated.waiting(1);
    const second = run("new question");
    await gated.waiting(2);
    gated.open();
    const answer = await expectJson<Event[]>(second, 200);
    expect(answer.map((e) => e.author)).toEqual(["root"]);
    expect((await sseEvents(await first)).map((e) => e.errorCode)).toEqual(["TURN_CANCELED"]);
    expect(gated.counts.aborted).toBe(1);
    expect(await stored()).toEqual([
      ["user", "old question"],
      ["root", "TURN_CANCELED"],
      ["user", "new question"],
      ["root", answer[0]?.content?.parts?.[0]?.text?.split(".")[0]],
    ]);
  });
});
