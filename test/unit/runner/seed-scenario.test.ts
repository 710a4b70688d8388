import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { collect, testServices, text } from "../support/run-helpers.js";
import { type Reply, scriptedModel } from "../support/scripted-model.js";

/** The seed scenario: root transfers to sub_agent, whose model is down for turn 1 and healthy after. */
function seed(options: { subDisallowsParent?: boolean; transferTo?: string } = {}) {
  const health = { down: true };
  const rootModel = scriptedModel((_, o) =>
    // After a rejected transfer, root answers itself.
    JSON.stringify(o.prompt).includes('"error"')
      ? { text: "root answers itself" }
      : { calls: [{ name: "transfer_to_agent", args: { agent_name: options.transferTo ?? "sub_agent" } }] },
  );
  const subModel = scriptedModel((): Reply => (health.down ? { fail: 503 } : { text: "sub_agent here" }));
  const sub = new LlmAgent({
    name: "sub_agent",
    description: "Handles transfers",
    model: subModel,
    disallowTransferToParent: options.subDisallowsParent ?? false,
  });
  const root = new LlmAgent({ name: "root", model: rootModel, subAgents: [sub] });
  const services = testServices();
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const runner = new Runner({
    app: defineApp({ name: "seed", rootAgent: root }),
    sessionStore: store,
    services,
  });
  return { runner, store, rootModel, subModel, health, services };
}

const key = { appName: "seed", userId: "u1", sessionId: "s1" };

describe.each([false, true])("the seed scenario (streaming: %s)", (streaming) => {
  it("keeps a committed transfer when the target fails before yielding, and routes turn 2 to it", async () => {
    const { runner, store, rootModel, subModel, health, services } = seed();
    await store.createSession({ appName: "seed", userId: "u1", sessionId: "s1" });

    const turn1 = (
      await collect(runner, { userId: "u1", sessionId: "s1", newMessage: text("TRANSFER please"), streaming })
    ).filter((e) => !e.partial);
    expect(turn1.map((e) => e.author)).toEqual(["root", "root", "sub_agent"]);
    const [call, response, failure] = turn1;
    expect(call?.content?.parts?.[0]?.functionCall).toMatchObject({
      name: "transfer_to_agent",
      args: { agent_name: "sub_agent" },
    });
    expect(response?.content?.parts?.[0]?.functionResponse?.response).toEqual({ result: null });
    expect(response?.actions.transferToAgent).toBe("sub_agent");
    expect(failure).toMatchObject({ author: "sub_agent", errorCode: "MODEL_UNAVAILABLE" });
    expect(failure?.content).toBeUndefined();
    expect(subModel.calls).toHaveLength(3); // the default policy: 3 attempts
    expect(services.slept).toHaveLength(2);

    const stored = await store.getSession(key);
    expect(stored?.events.map((e) => e.author)).toEqual(["user", "root", "root", "sub_agent"]);
    expect(stored?.events.at(-1)?.errorCode).toBe("MODEL_UNAVAILABLE");

    health.down = false;
    const rootCallsBefore = rootModel.calls.length;
    const turn2 = (
      await collect(runner, { userId: "u1", sessionId: "s1", newMessage: text("hello?"), streaming })
    ).filter((e) => !e.partial);
    expect(turn2.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ["sub_agent", "sub_agent here"],
    ]);
    expect(rootModel.calls.length).toBe(rootCallsBefore);
  });
});

describe("the seed scenario's variants", () => {
  it("keeps the transfer when the target fails after streaming a partial", async () => {
    const { runner, store, health } = seed();
    await store.createSession(key);
    // The sub model streams one chunk, then its stream breaks.
    const sub = runner.app.agents.get("sub_agent");
    if (!(sub instanceof LlmAgent)) throw new Error("sub_agent missing");
    const broken = scriptedModel(() => ({ text: "partial answ" }));
    const failing = {
      ...broken,
      async doStream(options: Parameters<typeof broken.doStream>[0]) {
        const { stream } = await broken.doStream(options);
        const reader = stream.getReader();
        return {
          stream: new ReadableStream({
            async pull(controller) {
              const { value, done } = await reader.read();
              if (done || value.type === "finish")
                controller.error(new TypeError("fetch failed: connection reset"));
              else controller.enqueue(value);
            },
          }),
        };
      },
    };
    Object.assign(sub.config, { model: failing });
    const events = await collect(runner, { ...key, newMessage: text("TRANSFER please"), streaming: true });
    expect(events.some((e) => e.partial && e.author === "sub_agent")).toBe(true);
    expect(events.at(-1)).toMatchObject({ author: "sub_agent", errorCode: "MODEL_UNAVAILABLE" });
    const stored = await store.getSession(key);
    expect(stored?.events.some((e) => e.partial)).toBe(false);

    health.down = false;
    Object.assign(sub.config, { model: scriptedModel([{ text: "back again" }]) });
    const turn2 = await collect(runner, { ...key, newMessage: text("hello?") });
    expect(turn2.map((e) => e.author)).toEqual(["sub_agent"]);
  });

  it("answers a transfer to an unknown agent with an error response and lets the model try again", async () => {
    const { runner, store, subModel } = seed({ transferTo: "nobody" });
    await store.createSession(key);
    const events = await collect(runner, { ...key, newMessage: text("TRANSFER please") });
    expect(events.map((e) => e.author)).toEqual(["root", "root", "root"]);
    const response = events[1];
    expect(response?.actions.transferToAgent).toBeUndefined();
    const error = response?.content?.parts?.[0]?.functionResponse?.response.error;
    expect(error).toEqual(expect.stringContaining("nobody"));
    expect(error).toEqual(expect.stringContaining("sub_agent"));
    expect(events[2]?.content?.parts?.[0]?.text).toBe("root answers itself");
    expect(events.some((e) => e.errorCode)).toBe(false);
    expect(subModel.calls).toHaveLength(0);
  });

  it("sends the next turn back to root when the failed target is not transferable", async () => {
    const { runner, store, rootModel, health } = seed({ subDisallowsParent: true });
    await store.createSession(key);
    const turn1 = await collect(runner, { ...key, newMessage: text("TRANSFER please") });
    expect(turn1.at(-1)).toMatchObject({ author: "sub_agent", errorCode: "MODEL_UNAVAILABLE" });
    health.down = false;
    const before = rootModel.calls.length;
    const turn2 = await collect(runner, { ...key, newMessage: text("hello?") });
    expect(rootModel.calls.length).toBe(before + 1);
    expect(turn2[0]?.author).toBe("root");
  });
});
