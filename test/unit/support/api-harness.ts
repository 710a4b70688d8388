import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { createAdkApi } from "../../../src/handlers/api.js";
import { defineApp } from "../../../src/runner/app.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { testServices } from "./run-helpers.js";
import { scriptedModel } from "./scripted-model.js";

/**
 * The app `hello` (a root agent that answers "hello there") served by the API over an in-memory store in
 * Node: the HTTP shapes, quickly. workerd runs the same against Durable Objects.
 */
export function api(env: Record<string, string> = { API_TOKENS: "t1,t2" }) {
  const services = testServices();
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const agent = new LlmAgent({ name: "root", model: scriptedModel([{ text: "hello there" }]) });
  const app = defineApp({ name: "hello", rootAgent: agent });
  const http = createAdkApi(() => ({ apps: new Map([[app.name, app]]), sessionStore: store, services }));
  const call = (path: string, init: RequestInit & { json?: unknown } = {}, token: string | null = "t1") => {
    const headers = new Headers(init.headers);
    if (token) headers.set("authorization", `Bearer ${token}`);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    const body = init.json === undefined ? init.body : JSON.stringify(init.json);
    return http.request(path, { ...init, headers, ...(body === undefined ? {} : { body }) }, env);
  };
  return { call, store };
}

export const runBody = (sessionId: string, extra: Record<string, unknown> = {}) => ({
  appName: "hello",
  userId: "u1",
  sessionId,
  newMessage: { role: "user", parts: [{ text: "hi" }] },
  ...extra,
});
