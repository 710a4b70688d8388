import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import { aiSdkRuntime } from "../../../src/runtimes/ai-sdk-runtime.js";
import { RuntimeAgent } from "../../../src/runtimes/runtime-agent.js";
import { fakeModelServer } from "../support/fake-model.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";

/**
 * Root: an AI SDK runtime agent on `root-model`, its model built from the invocation's env as a deployed
 * Worker would; its one sub-agent: an LlmAgent on `sub-model`. Both on the fake server.
 */
function runtimeTree(name: string) {
  const worker = new LlmAgent({
    name: "worker",
    description: "Does whatever root hands over.",
    model: "openai-compatible:sub-model",
  });
  const root = new RuntimeAgent({
    name: "root",
    description: "Routes the user.",
    runtime: aiSdkRuntime({
      model: (env) =>
        createOpenAICompatible({ name: "fake", baseURL: String(env.OPENAI_COMPATIBLE_BASE_URL) })(
          "root-model",
        ),
      maxSteps: 4,
    }),
    subAgents: [worker],
  });
  return defineApp({ name, rootAgent: root });
}

describe("a RuntimeAgent root over HTTP inside workerd", () => {
  it("transfers from the AI SDK loop to an LlmAgent worker, whose answer is the final event", async () => {
    const fake = fakeModelServer();
    const { app, user, session } = freshIds("runtime");
    const call = callWorker(
      { apps: [runtimeTree(app)], services: { sleep: noSleep } },
      { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() },
    );
    const sessions = sessionsOf(call, app, user);
    await sessions.create({ sessionId: session });
    const events = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "TRANSFER please") }),
      200,
    );
    expect(events.map((e) => e.author)).toEqual(["root", "root", "worker"]);
    expect(events[0]?.content?.parts?.map((p) => p.functionCall?.name)).toEqual(["transfer_to_agent"]);
    expect(events[1]?.actions.transferToAgent).toBe("worker");
    const final = events.at(-1);
    expect(final?.author).toBe("worker");
    expect(final?.content?.parts?.[0]?.text).toContain("sub-model answers");
    expect((await fake.calls()).calls.map((c) => c.model)).toEqual(["root-model", "sub-model"]);
    const stored = await sessions.eventsOf(session);
    expect(stored.map((e) => e.author)).toEqual(["user", "root", "root", "worker"]);

    const next = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "thanks") }),
      200,
    );
    expect(next.map((e) => e.author)).toEqual(["worker"]);
  });
});
