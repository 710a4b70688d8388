import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { piRuntime } from "../../../src/pi.js";
import { defineApp } from "../../../src/runner/app.js";
import { RuntimeAgent } from "../../../src/runtimes/runtime-agent.js";
import { fakeModelServer } from "../support/fake-model.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";
import { fakePiModel } from "../support/pi-model.js";

describe("piRuntime inside workerd", () => {
  it("runs pi-agent-core's loop on pi-ai's OpenAI provider and transfers to an LlmAgent worker", async () => {
    const fake = fakeModelServer();
    const { app, user, session } = freshIds("pi");
    const worker = new LlmAgent({
      name: "worker",
      description: "Works",
      model: "openai-compatible:sub-model",
    });
    const root = new RuntimeAgent({
      name: "root",
      runtime: piRuntime({ model: fakePiModel(fake.baseUrl(), "pi-model"), apiKey: "not-checked" }),
      subAgents: [worker],
    });
    const call = callWorker(
      { apps: [defineApp({ name: app, rootAgent: root })], services: { sleep: noSleep } },
      { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() },
    );
    await sessionsOf(call, app, user).create({ sessionId: session });
    const events = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "TRANSFER please") }),
      200,
    );
    expect(events.map((e) => e.author)).toEqual(["root", "root", "worker"]);
    expect(events[1]?.actions.transferToAgent).toBe("worker");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toContain("sub-model answers");
    expect((await fake.calls()).calls.map((c) => [c.model, c.stream])).toEqual([
      ["pi-model", true],
      ["sub-model", false],
    ]);
    // pi-ai imports its OpenAI provider lazily on the first call: seconds of module loading in workerd.
  }, 30_000);
});
