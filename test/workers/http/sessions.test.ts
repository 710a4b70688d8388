import { describe, expect, it } from "vitest";
import type { Session } from "../../../src/core/session.js";
import { helloWorker as setup } from "../support/hello-worker.js";
import { expectJson, runBody } from "../support/http.js";

describe("ADK HTTP API over Durable Object sessions: session endpoints", () => {
  it("creates a session with a given id and state, and refuses the same id again with 409", async () => {
    const { call, sessions, app, user, session } = setup();
    const created = await sessions.create({ sessionId: session, state: { a: 1, "user:lang": "fr" } });
    expect(created).toMatchObject({ id: session, appName: app, userId: user, events: [] });
    expect(created.state).toEqual({ a: 1, "user:lang": "fr" });
    const again = call(`/apps/${app}/users/${user}/sessions`, {
      method: "POST",
      json: { session_id: session },
    });
    expect(await expectJson(again, 409)).toMatchObject({ code: "session_exists" });
    expect((await sessions.get(session)).state).toEqual({ a: 1, "user:lang": "fr" });
  });

  it("creates a session with a generated id when the body is empty or absent", async () => {
    const { call, app, user } = setup();
    const empty = await expectJson<Session>(
      call(`/apps/${app}/users/${user}/sessions`, { method: "POST" }),
      200,
    );
    const blank = await expectJson<Session>(
      call(`/apps/${app}/users/${user}/sessions`, { method: "POST", json: {} }),
      200,
    );
    expect(empty.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(blank.id).not.toBe(empty.id);
  });

  it("answers 404 for GET and PATCH of a session that does not exist, and for an unknown app", async () => {
    const { call, app, user } = setup();
    expect(await expectJson(call(`/apps/${app}/users/${user}/sessions/nope`), 404)).toMatchObject({
      code: "session_not_found",
    });
    const patch = call(`/apps/${app}/users/${user}/sessions/nope`, {
      method: "PATCH",
      json: { stateDelta: {} },
    });
    expect(await expectJson(patch, 404)).toMatchObject({ code: "session_not_found" });
    const unknown = await expectJson<{ detail: string }>(call(`/apps/other/users/${user}/sessions`), 404);
    expect(unknown.detail).toContain(`Known apps: ${app}`);
  });

  it("lists a user's sessions without their events", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: `${session}-a` });
    await sessions.create({ sessionId: `${session}-b`, state: { b: true } });
    await expectJson(call("/run", { method: "POST", json: runBody(app, user, `${session}-a`, "hi") }), 200);
    const listed = await expectJson<Session[]>(call(`/apps/${app}/users/${user}/sessions`), 200);
    const byId = Object.fromEntries(listed.map((s) => [s.id, s]));
    expect(Object.keys(byId).sort()).toEqual([`${session}-a`, `${session}-b`]);
    expect(byId[`${session}-a`]?.events).toEqual([]);
    expect(byId[`${session}-b`]).toMatchObject({ state: { b: true }, events: [] });
    expect(await sessions.eventsOf(`${session}-a`)).toHaveLength(2);
  });

  it("records a PATCH with stateDelta or state_delta as a user event in a p- invocation", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: session, state: { a: 1 } });
    const path = `/apps/${app}/users/${user}/sessions/${session}`;
    await expectJson(call(path, { method: "PATCH", json: { stateDelta: { x: 1 } } }), 200);
    const patched = await expectJson<Session>(
      call(path, { method: "PATCH", json: { state_delta: { y: 2 } } }),
      200,
    );
    expect(patched.state).toEqual({ a: 1, x: 1, y: 2 });
    expect(patched.events.map((e) => [e.author, e.actions.stateDelta])).toEqual([
      ["user", { x: 1 }],
      ["user", { y: 2 }],
    ]);
    for (const event of patched.events) expect(event.invocationId).toMatch(/^p-[0-9a-f-]{36}$/);
    expect(await sessions.get(session)).toEqual(patched);
  });

  it("deletes a session with 200 and a null body, after which GET answers 404 and DELETE again 200", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: session });
    const path = `/apps/${app}/users/${user}/sessions/${session}`;
    expect(await expectJson(call(path, { method: "DELETE" }), 200)).toBeNull();
    expect((await call(path)).status).toBe(404);
    expect(await expectJson(call(`/apps/${app}/users/${user}/sessions`), 200)).toEqual([]);
    expect((await call(path, { method: "DELETE" })).status).toBe(200);
  });
});

describe("ADK HTTP API over Durable Object sessions: users", () => {
  it("does not let user B read, patch or run user A's session (404 on each)", async () => {
    const { call, sessions, app, user, session, fake } = setup();
    await sessions.create({ sessionId: session, state: { secret: 1 } });
    const other = `${user}-b`;
    const path = `/apps/${app}/users/${other}/sessions/${session}`;
    expect((await call(path)).status).toBe(404);
    expect((await call(path, { method: "PATCH", json: { stateDelta: { secret: 2 } } })).status).toBe(404);
    expect((await call("/run", { method: "POST", json: runBody(app, other, session, "hi") })).status).toBe(
      404,
    );
    expect(
      (await call("/run_sse", { method: "POST", json: runBody(app, other, session, "hi") })).status,
    ).toBe(404);
    expect(await expectJson(call(`/apps/${app}/users/${other}/sessions`), 200)).toEqual([]);
    const owned = await sessions.get(session);
    expect(owned.events).toEqual([]);
    expect(owned.state).toEqual({ secret: 1 });
    expect((await fake.calls()).calls).toEqual([]);
  });
});
