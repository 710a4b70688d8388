import type { BaseAgent } from "../../../src/agents/base-agent.js";
import type { SessionKey } from "../../../src/core/session.js";
import type { SessionStore } from "../../../src/core/session-store.js";
import type { TurnTrace } from "../../../src/core/trace.js";
import { type AppConfig, defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { collect, testServices, text } from "./run-helpers.js";

/** A runner over an in-memory store with deterministic services, and a one-call `turn(text)`. */
export async function harness(rootAgent: BaseAgent, app: Partial<AppConfig> = {}) {
  const services = testServices();
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids, traces: true });
  const runner = new Runner({
    app: defineApp({ name: "test", rootAgent, ...app }),
    sessionStore: store,
    services,
  });
  const key = { appName: "test", userId: "u", sessionId: "s" };
  await store.createSession(key);
  return {
    runner,
    store,
    services,
    key,
    turn: (message: string, options: { streaming?: boolean; stateDelta?: Record<string, unknown> } = {}) =>
      collect(runner, { userId: "u", sessionId: "s", newMessage: text(message), ...options }),
    /** The session's stored turn traces (the harness's store keeps them). */
    traces: () => tracesOf(store, key),
    session: async () => {
      const s = await store.getSession(key);
      if (!s) throw new Error("session vanished");
      return s;
    },
  };
}

/** A store's kept traces of a session; fails when the store keeps none (`InMemorySessionStore` without `traces`). */
export async function tracesOf(store: SessionStore, key: SessionKey): Promise<TurnTrace[]> {
  if (!store.listTraces) throw new Error("this store keeps no traces: make it with { traces: true }");
  return store.listTraces(key);
}
