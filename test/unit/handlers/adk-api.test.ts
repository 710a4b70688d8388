import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { api, runBody } from "../support/api-harness.js";

describe("ADK HTTP API (in-memory store)", () => {
  it("serves /health without a token and refuses other paths without one", async () => {
    const { call } = api();
    expect((await call("/health", {}, null)).status).toBe(200);
    expect((await call("/list-apps", {}, null)).status).toBe(401);
    expect((await call("/list-apps", {}, "wrong")).status).toBe(401);
    expect(await (await call("/list-apps", {}, "t2")).json()).toEqual(["hello"]);
  });

  it("refuses everything with a how-to message when no tokens are configured, unless ALLOW_UNAUTHENTICATED", async () => {
    const locked = api({});
    const res = await locked.call("/list-apps", {}, null);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toContain("API_TOKENS");
    const open = api({ ALLOW_UNAUTHENTICATED: "true" });
    expect((await open.call("/list-apps", {}, null)).status).toBe(200);
  });

  it("creates, reads, lists, patches and deletes a session", async () => {
    const { call } = api();
    const created = await call("/apps/hello/users/u1/sessions", {
      method: "POST",
      json: { sessionId: "s1", state: { a: 1 } },
    });
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({
      id: "s1",
      appName: "hello",
      userId: "u1",
      state: { a: 1 },
      events: [],
    });
    expect(
      (await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "s1" } })).status,
    ).toBe(409);

    const patched = await call("/apps/hello/users/u1/sessions/s1", {
      method: "PATCH",
      json: { state_delta: { y: 2 } },
    });
    const session = (await patched.json()) as { state: Record<string, unknown>; events: Event[] };
    expect(session.state).toEqual({ a: 1, y: 2 });
    expect(session.events[0]?.invocationId).toMatch(/^p-/);

    const listed = (await (await call("/apps/hello/users/u1/sessions")).json()) as {
      id: string;
      events: unknown[];
    }[];
    expect(listed.map((s) => [s.id, s.events])).toEqual([["s1", []]]);

    expect((await call("/apps/hello/users/u1/sessions/s1", { method: "DELETE" })).status).toBe(200);
    expect((await call("/apps/hello/users/u1/sessions/s1")).status).toBe(404);
    expect((await call("/apps/hello/users/u1/sessions/s1", { method: "DELETE" })).status).toBe(200);
  });

  it("runs a turn on /run with camelCase and snake_case bodies alike", async () => {
    const { call } = api();
    await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "s2" } });
    const camel = (await (await call("/run", { method: "POST", json: runBody("s2") })).json()) as Event[];
    expect(camel.map((e) => e.content?.parts?.[0]?.text)).toEqual(["hello there"]);
    const snake = await call("/run", {
      method: "POST",
      json: {
        app_name: "hello",
        user_id: "u1",
        session_id: "s2",
        new_message: { role: "user", parts: [{ text: "x" }] },
      },
    });
    expect(((await snake.json()) as Event[])[0]?.author).toBe("root");
  });

  it("streams events as data: frames on /run_sse, partials included when streaming", async () => {
    const { call } = api();
    await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "s3" } });
    const res = await call("/run_sse", { method: "POST", json: runBody("s3", { streaming: true }) });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const frames = (await res.text()).split("\n\n").filter((f) => f.startsWith("data: "));
    const events = frames.map((f) => JSON.parse(f.split("\n")[0]?.slice(6) ?? "") as Event);
    expect(events.filter((e) => e.partial).length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ content: { parts: [{ text: "hello there" }] } });
    expect(events.at(-1)?.partial).toBeUndefined();
  });

  it.each([
    ["an unknown app", runBody("s4", { appName: "nope" }), 404],
    ["a missing session", runBody("missing"), 404],
    ["a message with no parts", runBody("s4", { newMessage: { role: "user", parts: [] } }), 400],
    [
      "a function call in the message",
      runBody("s4", { newMessage: { parts: [{ functionCall: { name: "x", args: {} } }] } }),
      400,
    ],
    [
      "a body without userId",
      { appName: "hello", sessionId: "s4", newMessage: { parts: [{ text: "x" }] } },
      400,
    ],
  ])("rejects %s and appends nothing", async (_label, body, status) => {
    const { call, store } = api();
    await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "s4" } });
    const res = await call("/run_sse", { method: "POST", json: body });
    expect(res.status).toBe(status);
    expect(await res.json()).toHaveProperty("detail");
    expect((await store.getSession({ appName: "hello", userId: "u1", sessionId: "s4" }))?.events).toEqual([]);
  });

  it("answers invalid JSON with 400 and a body over 1 MiB with 413", async () => {
    const { call } = api();
    const bad = await call("/run", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    const huge = await call("/run", {
      method: "POST",
      json: runBody("s5", { stateDelta: { blob: "x".repeat(1_100_000) } }),
    });
    expect(huge.status).toBe(413);
  });

  it("answers a second turn on a busy session with 409 session_busy", async () => {
    const { call, store } = api();
    await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "s6" } });
    const key = { appName: "hello", userId: "u1", sessionId: "s6" };
    const held = await store.beginTurn(key, {
      id: "held",
      invocationId: "e-held",
      author: "user",
      timestamp: 1,
      content: { role: "user", parts: [{ text: "first" }] },
      actions: {
        stateDelta: {},
        artifactDelta: {},
        requestedAuthConfigs: {},
        requestedToolConfirmations: {},
      },
    });
    const res = await call("/run", { method: "POST", json: runBody("s6") });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "session_busy" });
    await store.endTurn(key, held.lease);
    expect((await call("/run", { method: "POST", json: runBody("s6") })).status).toBe(200);
  });

  it("hides one user's session from another (404)", async () => {
    const { call } = api();
    await call("/apps/hello/users/alice/sessions", { method: "POST", json: { sessionId: "private" } });
    expect((await call("/apps/hello/users/bob/sessions/private")).status).toBe(404);
    expect(
      (await call("/run", { method: "POST", json: { ...runBody("private"), userId: "bob" } })).status,
    ).toBe(404);
  });
});
