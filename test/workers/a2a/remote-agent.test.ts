import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { RemoteA2aAgent } from "../../../src/a2a/client/remote-a2a-agent.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
import { fakeModelServer } from "../support/fake-model.js";
import { callWorker, expectJson, freshIds, runBody, sessionsOf } from "../support/http.js";

const cardUrl = inject("a2aPeerCardUrl");

/** root (the fake model: it transfers when the user says TRANSFER) over a remote A2A agent "coder". */
function remoteApp(name: string) {
  const coder = new RemoteA2aAgent({
    name: "coder",
    description: "Writes code in a sandbox.",
    agentCard: cardUrl,
  });
  const root = new LlmAgent({ name: "root", model: "openai-compatible:root-model", subAgents: [coder] });
  return defineApp({ name, rootAgent: root });
}

const peerStats = async (): Promise<{ cardFetches: number; methods: string[] }> =>
  (await fetch(new URL("/_stats", cardUrl))).json();

describe("a remote A2A agent inside workerd, over /run", () => {
  it("stores a failed remote task as an A2A_TASK_FAILED error event, routes the next turn to root, and caches the card in KV", async () => {
    const fake = fakeModelServer();
    const { app, user, session } = freshIds("a2a");
    const call = callWorker({ apps: [remoteApp(app)] }, { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() });
    await sessionsOf(call, app, user).create({ sessionId: session });
    const before = await peerStats();

    const first = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "TRANSFER please") }),
      200,
    );
    expect(first.map((e) => [e.author, e.errorCode])).toEqual([
      ["root", undefined],
      ["root", undefined],
      ["coder", "A2A_TASK_FAILED"],
    ]);
    expect(first[1]?.actions.transferToAgent).toBe("coder");
    const stored = await expectJson<Session>(call(`/apps/${app}/users/${user}/sessions/${session}`), 200);
    const failure = stored.events.find((e) => e.author === "coder");
    expect(failure?.errorCode).toBe("A2A_TASK_FAILED");
    expect(failure?.errorMessage).toBe("claude exited with code 1");
    expect(failure?.customMetadata?.["a2a:task_id"]).toEqual(expect.any(String));

    const second = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "hello?") }),
      200,
    );
    expect(second.map((e) => e.author)).toEqual(["root"]);
    expect(second[0]?.errorCode).toBeUndefined();

    await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "TRANSFER again") }),
      200,
    );
    const after = await peerStats();
    expect(after.cardFetches - before.cardFetches).toBe(1);
    expect(after.methods.length - before.methods.length).toBe(2);
    expect(await env.AGENT_CARDS.get(`agent-card:${cardUrl}`)).toContain('"supportedInterfaces"');
  });
});
