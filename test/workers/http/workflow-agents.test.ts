import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import type { App } from "../../../src/runner/app.js";
import { fanoutApp, pipelineApp } from "../support/apps.js";
import { fakeModelServer } from "../support/fake-model.js";
import {
  callWorker,
  expectJson,
  freshIds,
  noSleep,
  runBody,
  sessionsOf,
  sseEvents,
} from "../support/http.js";

function setup(makeApp: (name: string) => App) {
  const fake = fakeModelServer();
  const ids = freshIds("wf");
  const call = callWorker(
    { apps: [makeApp(ids.app)], services: { sleep: noSleep } },
    { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() },
  );
  return { ...ids, fake, call, sessions: sessionsOf(call, ids.app, ids.user) };
}

describe("workflow agents over HTTP, sessions in Durable Objects", () => {
  it("runs a SequentialAgent: the first step's output_key fills the second step's {draft} instruction", async () => {
    const { call, sessions, app, user, session, fake } = setup(pipelineApp);
    await sessions.create({ sessionId: session });
    const events = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "a poem about tides") }),
      200,
    );
    expect(events.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["writer", "writer-model answers: a poem about tides"],
      [
        "reviewer",
        "reviewer-model answers: For context:[writer] said: writer-model answers: a poem about tides",
      ],
    ]);
    expect(events[0]?.actions.stateDelta).toEqual({ draft: "writer-model answers: a poem about tides" });
    const { calls } = await fake.calls();
    expect(calls.map((c) => c.model)).toEqual(["writer-model", "reviewer-model"]);
    expect(calls[1]?.system).toContain("Review this draft: writer-model answers: a poem about tides");
    const stored = await sessions.get(session);
    expect(stored.state.draft).toBe("writer-model answers: a poem about tides");
    expect(stored.events.map((e) => e.author)).toEqual(["user", "writer", "reviewer"]);
  });

  it("streams a ParallelAgent's events with their branches and stores them so", async () => {
    const { call, sessions, app, user, session, fake } = setup(fanoutApp);
    await sessions.create({ sessionId: session });
    const events = await sseEvents(
      await call("/run_sse", { method: "POST", json: runBody(app, user, session, "compare") }),
    );
    const branchOf = Object.fromEntries(events.map((e) => [e.author, e.branch ?? null]));
    expect(branchOf).toEqual({ left: "fanout.left", right: "fanout.right", summary: null });
    expect(events.at(-1)?.author).toBe("summary");
    expect((await fake.calls()).calls.map((c) => c.model).sort()).toEqual([
      "left-model",
      "right-model",
      "summary-model",
    ]);
    const stored = await sessions.eventsOf(session);
    expect(stored.slice(1).map((e) => [e.author, e.branch ?? null])).toEqual(
      events.map((e) => [e.author, e.branch ?? null]),
    );
  });
});
