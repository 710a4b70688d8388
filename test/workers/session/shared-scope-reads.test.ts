import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { BaseAgent } from "../../../src/agents/base-agent.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { StateMap } from "../../../src/core/state.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { DurableObjectSessionStore, type SessionStoreEnv } from "../../../src/session/do-store.js";
import { freshApp } from "../../contract/fixtures.js";
import { collect, testServices, text } from "../../unit/support/run-helpers.js";
import { promptText, scriptedModel } from "../../unit/support/scripted-model.js";

/** The user object's methods that keep the session index (decision 046), not its `user:` state. */
const INDEX_METHODS = new Set(["markSession", "writeSession"]);

/** A namespace whose stubs count their method calls: `count(method)` on each. */
function counted<T extends { getByName(name: string): unknown }>(
  namespace: T,
  count: (method: string) => void,
): T {
  return new Proxy(namespace, {
    get(target, prop) {
      if (prop !== "getByName") return Reflect.get(target, prop);
      return (name: string) => {
        const stub = target.getByName(name);
        // A stand-in that counts each method call and makes it on the stub (a stub is itself a proxy, so
        // it is not wrapped: its own `then` or `apply` would be taken for RPC methods).
        return new Proxy(
          {},
          {
            get: (_, method) =>
              typeof method !== "string" || method === "then"
                ? undefined
                : (...args: unknown[]) => {
                    count(method);
                    // SAFETY: a stub's string properties are its object's RPC methods.
                    return (stub as Record<string, (...a: unknown[]) => unknown>)[method]?.(...args);
                  },
          },
        );
      };
    },
  });
}

/**
 * Real Durable Objects behind namespaces that count the calls to `AppObject`s and `UserObject`s: the
 * user object's index calls (its mark before the turn, its row after) apart from its state calls.
 */
function countingStore() {
  const calls = { app: 0, user: 0, index: 0 };
  const spied: SessionStoreEnv = {
    ...env,
    APPS: counted(env.APPS, () => void calls.app++),
    USERS: counted(env.USERS, (method) => void (INDEX_METHODS.has(method) ? calls.index++ : calls.user++)),
  };
  return { store: new DurableObjectSessionStore(spied), calls };
}

/** Creates a session with `state`, then runs one turn of `root`'s app; counts only the turn's calls. */
async function turn(root: BaseAgent, state: StateMap = {}, stateDelta?: StateMap) {
  const { store, calls } = countingStore();
  const app = defineApp({ name: freshApp(), rootAgent: root });
  const key = { appName: app.name, userId: "u1", sessionId: "s1" };
  await store.createSession({ ...key, state });
  calls.app = 0;
  calls.user = 0;
  calls.index = 0;
  const runner = new Runner({ app, sessionStore: store, services: testServices() });
  const events = await collect(runner, {
    userId: "u1",
    sessionId: "s1",
    newMessage: text("hi"),
    ...(stateDelta ? { stateDelta } : {}),
  });
  const after = await new DurableObjectSessionStore(env).getSession(key);
  return { events, calls, state: after?.state ?? {} };
}

describe("a turn reads the app's and the user's Durable Objects only when its agents may use them", () => {
  it("makes no call to the AppObject or the UserObject when no agent of a transfer turn uses app: or user: keys", async () => {
    const billing = new LlmAgent({
      name: "billing",
      description: "Invoices",
      model: scriptedModel([{ text: "Invoice 42 is paid." }]),
      instruction: "Topic: {topic?}",
      outputKey: "last_answer",
    });
    const root = new LlmAgent({
      name: "root",
      model: scriptedModel([{ calls: [{ name: "transfer_to_agent", args: { agent_name: "billing" } }] }]),
      subAgents: [billing],
    });
    const { events, calls, state } = await turn(root, { "app:motto": "be kind", "user:tier": "gold" });

    expect(events.map((e) => e.author)).toEqual(["root", "root", "billing"]);
    // The user object only hears of the turn for the session index: announced before, its row after.
    expect(calls).toEqual({ app: 0, user: 0, index: 2 });
    // The shared scopes are untouched and still read by the session API.
    expect(state).toMatchObject({
      "app:motto": "be kind",
      "user:tier": "gold",
      last_answer: "Invoice 42 is paid.",
    });
  });

  it("reads the AppObject for an agent whose instruction names an app: key, and fills it", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const root = new LlmAgent({ name: "root", model, instruction: "Our motto: {app:motto}." });
    const { calls } = await turn(root, { "app:motto": "be kind" });

    expect(calls.app).toBe(1);
    expect(calls.user).toBe(0);
    expect(promptText(model.calls[0] ?? { prompt: [] })).toContain("Our motto: be kind.");
  });

  it("reads both scopes for a tool that does not declare what state it touches", async () => {
    const lookup = functionTool({
      name: "lookup",
      description: "Looks up",
      parameters: z.object({}),
      execute: (_args, ctx) => ({ tier: ctx.state.get("user:tier") }),
    });
    const root = new LlmAgent({
      name: "root",
      model: scriptedModel([{ calls: [{ name: "lookup", args: {} }] }, { text: "done" }]),
      tools: [lookup],
    });
    const { events, calls } = await turn(root, { "user:tier": "gold" });

    expect(calls.app).toBeGreaterThan(0);
    expect(calls.user).toBeGreaterThan(0);
    expect(events[1]?.content?.parts?.[0]?.functionResponse?.response).toEqual({ tier: "gold" });
  });

  it("writes only the UserObject for an output key with the user: prefix", async () => {
    const root = new LlmAgent({
      name: "root",
      model: scriptedModel([{ text: "hello" }]),
      outputKey: "user:last",
    });
    const { calls, state } = await turn(root);

    expect(calls.app).toBe(0);
    expect(calls.user).toBeGreaterThan(0);
    expect(state["user:last"]).toBe("hello");
  });

  it("writes an app: key of the request's stateDelta though no agent reads app: keys", async () => {
    const root = new LlmAgent({ name: "root", model: scriptedModel([{ text: "noted" }]) });
    const { calls, state } = await turn(root, {}, { "app:flag": true });

    expect(calls.app).toBe(1);
    expect(calls.user).toBe(0);
    expect(state["app:flag"]).toBe(true);
  });
});
