import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { DEFAULT_RETRY } from "../../../src/core/llm.js";
import { seedApp } from "../support/apps.js";
import { fakeModelServer } from "../support/fake-model.js";
import {
  type Call,
  callWorker,
  expectJson,
  freshIds,
  runBody,
  sessionsOf,
  sseEvents,
} from "../support/http.js";

/** One turn over `/run` (no streaming) or `/run_sse` (model streaming on); returns the complete events. */
type Transport = (call: Call, body: object) => Promise<Event[]>;

const overRun: Transport = (call, body) =>
  expectJson<Event[]>(call("/run", { method: "POST", json: body }), 200);

const overSse: Transport = async (call, body) => {
  const res = await call("/run_sse", { method: "POST", json: { ...body, streaming: true } });
  expect(res.status).toBe(200);
  return (await sseEvents(res)).filter((e) => !e.partial);
};

/** What the routing depends on, one line per event. */
const summary = (events: readonly Event[]) =>
  events.map((e) => ({
    author: e.author,
    call: e.content?.parts?.[0]?.functionCall?.name,
    response: e.content?.parts?.[0]?.functionResponse?.name,
    transferTo: e.actions.transferToAgent,
    text: e.content?.parts?.[0]?.text,
    errorCode: e.errorCode,
  }));

describe.each([
  ["/run", overRun, false],
  ["/run_sse", overSse, true],
])("the seed scenario over %s", (_path, turn, streamed) => {
  it("keeps a transfer whose target failed: the error is stored as the target's, and the next turn goes to it without calling root", async () => {
    const fake = fakeModelServer();
    const { app, user, session } = freshIds("seed");
    const logs: string[] = [];
    const slept: number[] = [];
    const services = {
      sleep: async (ms: number) => void slept.push(ms),
      log: (line: string) => void logs.push(line),
    };
    const seed = seedApp(app);
    // Turn 1 sees sub-model down (503 on every attempt); turn 2 sees every model healthy.
    const down = callWorker(
      { apps: [seed], services },
      { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl({ down: ["sub-model"] }) },
    );
    const up = callWorker({ apps: [seed], services }, { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() });
    const sessions = sessionsOf(up, app, user);
    await sessions.create({ sessionId: session });

    const first = await turn(down, runBody(app, user, session, "TRANSFER please"));
    expect(summary(first)).toEqual([
      { author: "root", call: "transfer_to_agent" },
      { author: "root", response: "transfer_to_agent", transferTo: "sub_agent" },
      { author: "sub_agent", errorCode: "MODEL_UNAVAILABLE" },
    ]);
    const error = first[2];
    expect(error?.content).toBeUndefined();
    expect(error?.errorMessage).toMatch(new RegExp(`HTTP 503.*after ${DEFAULT_RETRY.attempts} attempts`));
    expect(first[0]?.content?.parts?.[0]?.functionCall?.args).toEqual({ agent_name: "sub_agent" });
    expect(slept).toHaveLength(DEFAULT_RETRY.attempts - 1);
    expect(logs).toEqual([expect.stringMatching(/^Agent "sub_agent" failed in e-.*HTTP 503/)]);
    const turnOneCalls = (await fake.calls()).calls;
    expect(turnOneCalls.map((c) => [c.model, c.status, c.stream])).toEqual([
      ["root-model", 200, streamed],
      ...Array.from({ length: DEFAULT_RETRY.attempts }, () => ["sub-model", 503, streamed]),
    ]);

    const second = await turn(up, runBody(app, user, session, "hello?"));
    expect(summary(second)).toEqual([{ author: "sub_agent", text: "sub-model answers: hello?" }]);
    const turnTwoCalls = (await fake.calls()).calls.slice(turnOneCalls.length);
    expect(turnTwoCalls.map((c) => [c.model, c.lastMessage])).toEqual([["sub-model", "hello?"]]);

    const stored = await sessions.eventsOf(session);
    expect(summary(stored)).toEqual([
      { author: "user", text: "TRANSFER please" },
      ...summary(first),
      { author: "user", text: "hello?" },
      ...summary(second),
    ]);
    expect(stored.slice(1, 4)).toEqual(first);
    expect(stored.slice(5)).toEqual(second);
  });
});
