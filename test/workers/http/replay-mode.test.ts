import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { adkReplayPlugin } from "../../../src/replay/replay-plugin.js";
import { helloApp } from "../support/apps.js";
import { fakeModelServer } from "../support/fake-model.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";

const QUESTION = "What is the tallest mountain?";

/** `_adk_replay_config` as `npm run conformance` sends it: one recorded model call of agent `root`. */
const replayConfig = {
  dir: "/cases/tests/core/hello_001",
  user_message_index: 0,
  streaming_mode: "none",
  recordings: {
    recordings: [
      {
        user_message_index: 0,
        agent_name: "root",
        llm_recording: {
          llm_request: {
            contents: [{ role: "user", parts: [{ text: QUESTION }] }],
            config: { system_instruction: 'You are an agent. Your internal name is "root".' },
          },
          llm_response: { content: { role: "model", parts: [{ text: "Recorded: Everest." }] } },
        },
      },
    ],
  },
};

/** One turn of a fresh hello app carrying the replay config, with `vars` on top of the test env. */
async function turnWithReplayConfig(vars: Record<string, string>) {
  const fake = fakeModelServer();
  const ids = freshIds("replay");
  const call = callWorker(
    { apps: [helloApp(ids.app)], services: { sleep: noSleep }, replay: adkReplayPlugin },
    { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl(), ...vars },
  );
  await sessionsOf(call, ids.app, ids.user).create({ sessionId: ids.session });
  const body = runBody(ids.app, ids.user, ids.session, QUESTION, {
    stateDelta: { _adk_replay_config: replayConfig },
  });
  const events = await expectJson<Event[]>(call("/run", { method: "POST", json: body }), 200);
  return { events, modelCalls: (await fake.calls()).calls.length };
}

describe("ADK's replay mode in the served Worker", () => {
  it("answers a model call from the recording in _adk_replay_config when the var ADK_REPLAY is true", async () => {
    const { events, modelCalls } = await turnWithReplayConfig({ ADK_REPLAY: "true" });
    expect(events.map((e) => [e.author, e.content?.parts?.[0]?.text, e.errorCode])).toEqual([
      ["root", "Recorded: Everest.", undefined],
    ]);
    expect(modelCalls).toBe(0);
  });

  it("does nothing special with _adk_replay_config when ADK_REPLAY is not set, as in a deploy", async () => {
    const { events, modelCalls } = await turnWithReplayConfig({});
    expect(events.map((e) => [e.author, e.content?.parts?.[0]?.text, e.errorCode])).toEqual([
      ["root", `hello-model answers: ${QUESTION}`, undefined],
    ]);
    expect(modelCalls).toBe(1);
  });

  it("stays off for any ADK_REPLAY value other than true", async () => {
    const { events, modelCalls } = await turnWithReplayConfig({ ADK_REPLAY: "1" });
    expect(events[0]?.content?.parts?.[0]?.text).toBe(`hello-model answers: ${QUESTION}`);
    expect(modelCalls).toBe(1);
  });

  it("reports a live request that differs from the recording as the agent's error event", async () => {
    const fake = fakeModelServer();
    const ids = freshIds("replay");
    // The failure goes to the log port too; the test keeps those lines instead of printing them.
    const logged: string[] = [];
    const log = (message: string) => void logged.push(message);
    const call = callWorker(
      { apps: [helloApp(ids.app)], services: { sleep: noSleep, log }, replay: adkReplayPlugin },
      { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl(), ADK_REPLAY: "true" },
    );
    await sessionsOf(call, ids.app, ids.user).create({ sessionId: ids.session });
    const body = runBody(ids.app, ids.user, ids.session, "Another question", {
      stateDelta: { _adk_replay_config: replayConfig },
    });
    const [event, ...rest] = await expectJson<Event[]>(call("/run", { method: "POST", json: body }), 200);
    expect(rest).toEqual([]);
    expect(event?.errorMessage).toContain("ReplayMismatch: LLM request mismatch in turn 0 for agent 'root'");
    expect(event?.errorMessage).toContain(`contents[0].parts[0].text: expected "${QUESTION}"`);
    expect((await fake.calls()).calls).toEqual([]);
    expect(logged).toEqual([
      expect.stringContaining(`Agent "root" failed in ${event?.invocationId}: ReplayMismatch`),
    ]);
  });

  it("refuses every request when ADK_REPLAY is true but the Worker was built without the replay plugin", async () => {
    const fake = fakeModelServer();
    const ids = freshIds("replay");
    const call = callWorker(
      { apps: [helloApp(ids.app)], services: { sleep: noSleep } },
      { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl(), ADK_REPLAY: "true" },
    );
    const body = runBody(ids.app, ids.user, ids.session, QUESTION, {
      stateDelta: { _adk_replay_config: replayConfig },
    });
    const refused = await call("/run", { method: "POST", json: body });
    expect(refused.status).toBe(500);
    expect(await refused.text()).toContain("pass `replay: adkReplayPlugin`");
    expect((await fake.calls()).calls).toEqual([]);
  });
});
