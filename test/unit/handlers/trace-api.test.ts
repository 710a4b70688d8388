import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { createEvent } from "../../../src/core/event.js";
import { createAdkApi } from "../../../src/handlers/api.js";
import { defineApp } from "../../../src/runner/app.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { traceOf } from "../../contract/trace-cases.js";
import { testServices } from "../support/run-helpers.js";

/** Stores one traced turn for (u1, s1) and one for (u2, s1): the dev UI names the session alone. */
async function api() {
  const services = testServices();
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids, traces: true });
  const app = defineApp({ name: "shop", rootAgent: new LlmAgent({ name: "desk", model: "demo:" }) });
  const http = createAdkApi(() => ({ apps: new Map([[app.name, app]]), sessionStore: store, services }));
  for (const userId of ["u1", "u2"]) {
    const key = { appName: "shop", userId, sessionId: "s1" };
    await store.createSession(key);
    const event = createEvent({ invocationId: `e-${userId}`, author: "user" }, services);
    const { lease } = await store.beginTurn(key, event);
    const trace = traceOf(`e-${userId}`);
    const model = trace.spans[1];
    if (model) model.attributes["gcp.vertex.agent.event_id"] = `ev-${userId}`;
    await store.endTurn(key, lease, trace);
  }
  const env = { ALLOW_UNAUTHENTICATED: "true" };
  const get = (path: string) => http.request(path, {}, env);
  return { get };
}

describe("the dev UI's trace endpoints", () => {
  it("returns a session's spans in ADK's shape: nanosecond times, snake_case ids, parents, errors as attributes", async () => {
    const { get } = await api();
    const res = await get("/dev/apps/shop/debug/trace/session/s1?user_id=u1");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      {
        name: "invocation",
        span_id: "b7ad6b7169203331",
        trace_id: "0af7651916cd43dd8448eb211c80319c",
        start_time: 1_000_000,
        end_time: 9_000_000,
        // The size of the trace as the store kept it, which the store adds when it reads the trace back.
        attributes: { "baton.n": 1, "baton.storage.trace_bytes": expect.any(Number) },
        parent_span_id: null,
      },
      {
        name: "call_llm",
        span_id: "00f067aa0ba902b7",
        trace_id: "0af7651916cd43dd8448eb211c80319c",
        start_time: 2_000_000,
        end_time: 8_000_000,
        attributes: {
          "gen_ai.response.finish_reasons": ["STOP"],
          ok: true,
          "gcp.vertex.agent.event_id": "ev-u1",
          "error.message": "boom",
        },
        parent_span_id: "b7ad6b7169203331",
      },
    ]);
  });

  it("finds the session's users when no user is named, on ADK's old path too, and answers [] for none", async () => {
    const { get } = await api();
    const spans = (await (await get("/dev/apps/shop/debug/trace/session/s1")).json()) as unknown[];
    expect(spans).toHaveLength(4);
    expect(await (await get("/debug/trace/session/s1")).json()).toEqual(spans);
    expect(await (await get("/dev/apps/shop/debug/trace/session/nope")).json()).toEqual([]);
    expect((await get("/dev/apps/nope/debug/trace/session/s1")).status).toBe(404);
  });

  it("returns one event's span attributes with its ids, and 404 with a hint without the session", async () => {
    const { get } = await api();
    expect(await (await get("/dev/apps/shop/debug/trace/ev-u2?session_id=s1")).json()).toMatchObject({
      "gcp.vertex.agent.event_id": "ev-u2",
      trace_id: "0af7651916cd43dd8448eb211c80319c",
      span_id: "00f067aa0ba902b7",
    });
    const missing = await get("/dev/apps/shop/debug/trace/ev-u2");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toContain("session_id");
  });
});
