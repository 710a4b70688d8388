import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import type { ModelPort } from "../../../src/core/ports.js";
import type { ModelProvider } from "../../../src/models/model-provider.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { aiSdkRuntime } from "../../../src/runtimes/ai-sdk-runtime.js";
import { RuntimeAgent } from "../../../src/runtimes/runtime-agent.js";
import { aiSdkModelPort } from "../../../src/services/model-registry.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { collect, testServices, text, texts } from "../support/run-helpers.js";
import { type ScriptedModel, scriptedModel } from "../support/scripted-model.js";

/** A registered provider named `scripted` whose every model is `model`, recording the ids and envs asked for. */
function scriptedProvider(model: ScriptedModel) {
  const asked: { id: string; env: Record<string, unknown> }[] = [];
  const provider: ModelProvider = {
    name: "scripted",
    model: (id, env) => {
      asked.push({ id, env });
      return model;
    },
  };
  return { provider, asked };
}

/** One turn of `root` under a runner whose model port is `models` (a failed turn ends in an error event). */
async function turn(root: RuntimeAgent, models: ModelPort, env: Record<string, unknown> = {}) {
  const services = { ...testServices(), models, env };
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const runner = new Runner({
    app: defineApp({ name: "models", rootAgent: root }),
    sessionStore: store,
    services,
  });
  await store.createSession({ appName: "models", userId: "u", sessionId: "s" });
  return collect(runner, { userId: "u", sessionId: "s", newMessage: text("hi") });
}

/** The turn's last event's error code and message. */
const failureOf = (events: readonly Event[]) => ({
  code: events.at(-1)?.errorCode,
  message: events.at(-1)?.errorMessage ?? "",
});

describe("aiSdkRuntime's model strings", () => {
  it("resolves a provider:model string through the registered providers, as an LlmAgent's model", async () => {
    const model = scriptedModel([{ text: "from the registered provider" }]);
    const { provider, asked } = scriptedProvider(model);
    const root = new RuntimeAgent({
      name: "root",
      runtime: aiSdkRuntime({ model: "scripted:small", maxRetries: 0 }),
    });
    const events = await turn(root, aiSdkModelPort([provider]), { KEY: "k" });
    expect(texts(events)).toEqual(["from the registered provider"]);
    expect(asked).toEqual([{ id: "small", env: { KEY: "k" } }]);
    expect(model.calls).toHaveLength(1);
  });

  it("resolves a string that a function of the env gives", async () => {
    const model = scriptedModel([{ text: "chosen per env" }]);
    const { provider, asked } = scriptedProvider(model);
    const runtime = aiSdkRuntime({ model: (env) => `scripted:${String(env.TIER)}`, maxRetries: 0 });
    const events = await turn(new RuntimeAgent({ name: "root", runtime }), aiSdkModelPort([provider]), {
      TIER: "large",
    });
    expect(texts(events)).toEqual(["chosen per env"]);
    expect(asked.map((a) => a.id)).toEqual(["large"]);
  });

  it("runs the built-in demo: model offline", async () => {
    const runtime = aiSdkRuntime({ model: "demo:helper", maxRetries: 0 });
    const events = await turn(new RuntimeAgent({ name: "root", runtime }), aiSdkModelPort());
    expect(events.at(-1)?.author).toBe("root");
    expect(events.at(-1)?.errorCode).toBeUndefined();
    expect(events.at(-1)?.content?.parts?.[0]?.text).toMatch(/\w/);
  });

  it("fails with MODEL_CONFIG naming the registered prefixes for a provider nobody registered", async () => {
    const { provider } = scriptedProvider(scriptedModel([{ text: "never" }]));
    const root = new RuntimeAgent({
      name: "root",
      runtime: aiSdkRuntime({ model: "openai:gpt-4.1-mini", maxRetries: 0 }),
    });
    const failure = failureOf(await turn(root, aiSdkModelPort([provider])));
    expect(failure.code).toBe("MODEL_CONFIG");
    expect(failure.message).toContain("registered: demo, scripted");
    expect(failure.message).toContain('from "@baton-agents/core/models/openai"');
  });

  it("fails the same way as an LlmAgent given the same unknown string", async () => {
    const agent = new LlmAgent({ name: "root", model: "openai:gpt-4.1-mini" });
    const services = { ...testServices(), models: aiSdkModelPort() };
    const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
    const runner = new Runner({
      app: defineApp({ name: "m", rootAgent: agent }),
      sessionStore: store,
      services,
    });
    await store.createSession({ appName: "m", userId: "u", sessionId: "s" });
    const viaAgent = failureOf(
      await collect(runner, { userId: "u", sessionId: "s", newMessage: text("hi") }),
    );
    const root = new RuntimeAgent({ name: "root", runtime: aiSdkRuntime({ model: "openai:gpt-4.1-mini" }) });
    const viaRuntime = failureOf(await turn(root, aiSdkModelPort()));
    expect(viaAgent.code).toBe("MODEL_CONFIG");
    expect(viaRuntime).toEqual(viaAgent);
  });

  it("fails with MODEL_CONFIG when the model port cannot resolve strings", async () => {
    const callOnly: ModelPort = { call: aiSdkModelPort().call };
    const root = new RuntimeAgent({ name: "root", runtime: aiSdkRuntime({ model: "demo:helper" }) });
    const failure = failureOf(await turn(root, callOnly));
    expect(failure.code).toBe("MODEL_CONFIG");
    expect(failure.message).toContain("services.models has no resolve");
  });
});
