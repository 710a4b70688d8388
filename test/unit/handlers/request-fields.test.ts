import { describe, expect, it } from "vitest";
import type { Session } from "../../../src/core/session.js";
import { api, runBody } from "../support/api-harness.js";

const detailOf = async (res: Response): Promise<string> => ((await res.json()) as { detail: string }).detail;

describe("ADK request bodies: supported fields only", () => {
  it.each([
    ["an unknown field", { colour: "red" }, "colour"],
    ["an unknown snake_case field, named as sent", { new_messages: [] }, "new_messages"],
    ["an empty invocationId", { invocationId: "" }, "invocationId"],
    ["an invocation_id longer than 128 characters", { invocation_id: "e".repeat(129) }, "invocationId"],
  ])("answers /run with %s: 400 naming the field, and appends nothing", async (_, extra, field) => {
    const { call, store } = api();
    await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "strict-run" } });
    const res = await call("/run", { method: "POST", json: runBody("strict-run", extra) });
    expect(res.status).toBe(400);
    expect(await detailOf(res)).toContain(`${field}: `);
    const session = await store.getSession({ appName: "hello", userId: "u1", sessionId: "strict-run" });
    expect(session?.events).toEqual([]);
  });

  it("names an unsupported field and a missing required one together", async () => {
    const { call } = api();
    await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "both" } });
    const res = await call("/apps/hello/users/u1/sessions/both", { method: "PATCH", json: { x: 1 } });
    expect(res.status).toBe(400);
    const detail = await detailOf(res);
    expect(detail).toContain("x: Baton does not support this field");
    expect(detail).toContain("stateDelta: ");
  });

  it("answers 404 for an invocationId to resume that the session does not have", async () => {
    const { call } = api();
    await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "resume" } });
    const res = await call("/run_sse", { method: "POST", json: runBody("resume", { invocationId: "e-1" }) });
    expect(res.status).toBe(404);
    expect(await detailOf(res)).toContain("Invocation e-1 is not in session resume");
  });

  it.each([
    [
      "camelCase",
      { streaming: false, stateDelta: { a: 1 }, customMetadata: { k: "v" }, functionCallEventId: "f" },
    ],
    ["snake_case", { state_delta: { a: 1 }, custom_metadata: { k: "v" }, function_call_event_id: "f" }],
    ["null for unset fields, as Python clients send", { stateDelta: null, invocationId: null, colour: null }],
  ])("runs a turn with every RunAgentRequest field ADK defines, in %s", async (_, extra) => {
    const { call } = api();
    await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "full" } });
    const res = await call("/run", { method: "POST", json: runBody("full", extra) });
    expect(res.status).toBe(200);
  });

  it.each([
    ["POST", "/apps/hello/users/u1/sessions", { sessionId: "x", stat: { a: 1 } }, "stat"],
    ["POST", "/apps/hello/users/u1/sessions", { session_id: "x", app_name: "hello" }, "app_name"],
    ["PATCH", "/apps/hello/users/u1/sessions/known", { state: { a: 1 } }, "state"],
    ["PATCH", "/apps/hello/users/u1/sessions/known", { state_delta: { a: 1 }, author: "me" }, "author"],
  ])("answers %s %s with an unsupported field: 400 naming it", async (method, path, json, field) => {
    const { call } = api();
    await call("/apps/hello/users/u1/sessions", { method: "POST", json: { sessionId: "known" } });
    const res = await call(path, { method, json });
    expect(res.status).toBe(400);
    expect(await detailOf(res)).toContain(`${field}: Baton does not support this field`);
    expect((await call("/apps/hello/users/u1/sessions/x")).status).toBe(404);
    const known = (await (await call("/apps/hello/users/u1/sessions/known")).json()) as Session;
    expect(known.events).toEqual([]);
  });
});

describe("the /apps/:app routes", () => {
  it.each([
    ["POST", "/apps/nope/users/u1/sessions"],
    ["GET", "/apps/nope/users/u1/sessions"],
    ["GET", "/apps/nope/users/u1/sessions/s1"],
    ["PATCH", "/apps/nope/users/u1/sessions/s1"],
    ["DELETE", "/apps/nope/users/u1/sessions/s1"],
    ["GET", "/apps/nope/anything/else"],
  ])(
    "answer %s %s for an unknown app with 404 app_not_found, naming the known apps",
    async (method, path) => {
      const { call } = api();
      const res = await call(path, method === "GET" ? {} : { method, json: { stateDelta: {} } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        detail: "App not found: nope. Known apps: hello.",
        code: "app_not_found",
      });
    },
  );

  it("seeds a session with events on create, and creates nothing when the seed is refused", async () => {
    const { call } = api();
    const event = {
      id: "seed-1",
      invocationId: "e-seed",
      author: "user",
      timestamp: 1_767_225_600,
      content: { role: "user", parts: [{ text: "earlier" }] },
      actions: { state_delta: { "user:tier": "gold" } },
    };
    const seeded = await call("/apps/hello/users/u1/sessions", {
      method: "POST",
      json: { sessionId: "seeded", events: [event] },
    });
    expect(seeded.status).toBe(200);
    const session = (await seeded.json()) as Session;
    expect(session.events.map((e) => e.id)).toEqual(["seed-1"]);
    expect(session.state).toEqual({ "user:tier": "gold" });

    const refused = await call("/apps/hello/users/u1/sessions", {
      method: "POST",
      json: { sessionId: "twice", events: [event, event] },
    });
    expect(refused.status).toBe(400);
    expect((await call("/apps/hello/users/u1/sessions/twice")).status).toBe(404);
  });
});
