import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
// Loaded here so the entry's module graph is imported with the file, not inside the first test's timeout.
import "../../../src/worker.js";
import { callEntry, expectJson, freshIds, runBody, sessionsOf, sseEvents } from "../support/http.js";

const shape = (events: readonly Event[]) =>
  events
    .filter((e) => e.actions.agentState?.status !== "running")
    .map((e) => [e.author, e.nodeInfo?.path ?? "-", e.output === undefined ? "-" : "output"]);

describe("the demo Worker's workflow app, in a session's Durable Object", () => {
  it("runs the graph over /run and stores each node's events with their path and output, read back camelCase", async () => {
    const call = callEntry();
    const { user, session } = freshIds();
    const sessions = sessionsOf(call, "workflow", user);
    await sessions.create({ sessionId: session });
    const body = runBody("workflow", user, session, "What is the weather in Paris?");
    const events = await expectJson<Event[]>(call("/run", { method: "POST", json: body }), 200);
    expect(shape(events)).toEqual([
      ["classify", "triage/classify", "output"],
      ["user", "triage/forecaster", "-"],
      ["forecaster", "triage/forecaster", "-"],
      ["forecaster", "triage/forecaster", "-"],
      ["forecaster", "triage/forecaster", "output"],
      ["wrap_up", "triage/wrap_up", "output"],
    ]);
    expect(events[0]?.actions.route).toBe("weather");
    expect(String(events.at(-1)?.output)).toMatch(
      /^Done: Here is what I found: get_forecast returned city: Paris/,
    );
    const stored = await sessions.eventsOf(session);
    expect(stored.slice(1)).toEqual(events);
    expect(stored.at(-1)?.nodeInfo).toEqual({ path: "triage/wrap_up", outputFor: ["triage/wrap_up"] });
  });

  it("pauses on the question over /run_sse and resumes in the next turn with the user's plain-text answer", async () => {
    const call = callEntry();
    const { user, session } = freshIds();
    await sessionsOf(call, "workflow", user).create({ sessionId: session });
    const ask = runBody("workflow", user, session, "hello there", { streaming: true });
    const paused = await sseEvents(await call("/run_sse", { method: "POST", json: ask }));
    const question = paused.find((e) => e.author === "ask_user");
    expect(question?.content?.parts?.[0]?.functionCall?.name).toBe("adk_request_input");
    expect(question?.longRunningToolIds).toHaveLength(1);
    const answer = runBody("workflow", user, session, "billing, please");
    const resumed = await expectJson<Event[]>(call("/run", { method: "POST", json: answer }), 200);
    expect(shape(resumed)).toEqual([["wrap_up", "triage/wrap_up", "output"]]);
    expect(resumed[0]?.output).toBe("Done: billing, please");
  });
});
