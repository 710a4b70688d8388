import { describe, expect, it } from "vitest";
import { ID_LIMITS } from "../../../src/core/limits.js";
import { helloWorker as setup } from "../support/hello-worker.js";
import { expectJson, runBody } from "../support/http.js";

type Refusal = { detail: string; code: string };

describe("ids over their limits are refused with 400 naming the limit, and nothing is stored", () => {
  it("refuses a new session whose id is 100,000 characters long, and lists none", async () => {
    const { call, app, user } = setup();
    const sessionId = "s".repeat(100_000);
    const res = call(`/apps/${app}/users/${user}/sessions`, { method: "POST", json: { sessionId } });
    const refusal = await expectJson<Refusal>(res, 400);
    expect(refusal.code).toBe("invalid_request");
    expect(refusal.detail).toContain(`session id is at most ${ID_LIMITS.sessionId.maxLength} characters`);
    expect(await expectJson(call(`/apps/${app}/users/${user}/sessions`), 200)).toEqual([]);
  });

  it("refuses over-long or malformed user, session and app ids in the path before anything runs", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: session });
    const long = (n: number) => "x".repeat(n);
    const cases: [path: string, named: RegExp][] = [
      [`/apps/${app}/users/${long(ID_LIMITS.userId.maxLength + 1)}/sessions`, /user id is at most 320/],
      [
        `/apps/${app}/users/${user}/sessions/${long(ID_LIMITS.sessionId.maxLength + 1)}`,
        /session id is at most 128/,
      ],
      [`/apps/${long(200)}/users/${user}/sessions`, /app name is at most 128/],
      [`/apps/${app}/users/${user}/sessions/a%20b`, /session id may only hold printable characters/],
      [`/dev/apps/${app}/users/${user}/sessions/${long(129)}/events/e/graph`, /session id is at most 128/],
    ];
    for (const [path, named] of cases) {
      const refusal = await expectJson<Refusal>(call(path), 400);
      expect(refusal.detail).toMatch(named);
    }
    const del = call(`/apps/${app}/users/${user}/sessions/${long(129)}`, { method: "DELETE" });
    expect((await expectJson<Refusal>(del, 400)).detail).toMatch(/session id is at most 128/);
    expect((await sessions.get(session)).id).toBe(session);
  });

  it("refuses /run with an over-long user or session id, starting no turn and creating nothing", async () => {
    const { call, app, user, session, fake } = setup();
    const body = runBody(app, "u".repeat(ID_LIMITS.userId.maxLength + 1), session, "hi");
    const refusal = await expectJson<Refusal>(call("/run", { method: "POST", json: body }), 400);
    expect(refusal.detail).toMatch(/userId: a user id is at most 320 characters/);
    const long = runBody(app, user, "s".repeat(500), "hi");
    expect((await expectJson<Refusal>(call("/run_sse", { method: "POST", json: long }), 400)).detail).toMatch(
      /sessionId: a session id is at most 128 characters \(this one has 500\)/,
    );
    expect((await fake.calls()).calls).toEqual([]);
    expect(await expectJson(call(`/apps/${app}/users/${user}/sessions`), 200)).toEqual([]);
  });

  it("accepts ids exactly at their limits", async () => {
    const { call, app } = setup();
    const user = "u".repeat(ID_LIMITS.userId.maxLength);
    const sessionId = "s".repeat(ID_LIMITS.sessionId.maxLength);
    await expectJson(
      call(`/apps/${app}/users/${user}/sessions`, { method: "POST", json: { sessionId } }),
      200,
    );
    await expectJson(call(`/apps/${app}/users/${user}/sessions/${sessionId}`), 200);
    await expectJson(call(`/apps/${app}/users/${user}/sessions/${sessionId}`, { method: "DELETE" }), 200);
  });
});
