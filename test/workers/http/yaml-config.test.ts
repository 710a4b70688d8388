import { describe, expect, it } from "vitest";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
import type { Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import reviewer from "../fixtures/yaml-pipeline/reviewer_agent.yaml";
import root from "../fixtures/yaml-pipeline/root_agent.yaml";
import writer from "../fixtures/yaml-pipeline/writer_agent.yaml";
import { fakeModelServer } from "../support/fake-model.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";

describe("an Agent Config YAML tree bundled into the Worker", () => {
  it("loads from text modules and runs a turn over HTTP: output_key, {draft}, include_contents and temperature hold", async () => {
    const rootAgent = loadAgentConfig({
      files: { "root_agent.yaml": root, "writer_agent.yaml": writer, "reviewer_agent.yaml": reviewer },
    });
    const fake = fakeModelServer();
    const ids = freshIds("yaml");
    const call = callWorker(
      { apps: [defineApp({ name: ids.app, rootAgent })], services: { sleep: noSleep } },
      { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() },
    );
    await sessionsOf(call, ids.app, ids.user).create({ sessionId: ids.session });
    const events = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(ids.app, ids.user, ids.session, "a note on tides") }),
      200,
    );
    expect(events.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["yaml_writer", "yaml-writer-model answers: a note on tides"],
      // include_contents: none: the reviewer's turn starts at the writer's event, not the user's message.
      [
        "yaml_reviewer",
        "yaml-reviewer-model answers: For context:[yaml_writer] said: yaml-writer-model answers: a note on tides",
      ],
    ]);
    expect(events[0]?.actions.stateDelta).toEqual({ draft: "yaml-writer-model answers: a note on tides" });
    const { calls } = await fake.calls();
    expect(calls.map((c) => c.model)).toEqual(["yaml-writer-model", "yaml-reviewer-model"]);
    expect(calls[0]?.settings).toMatchObject({ temperature: 0.4 });
    expect(calls[1]?.system).toContain("Review this draft: yaml-writer-model answers: a note on tides");
  });
});
