import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../../src/core/safe-shape.js";
import { helloWorker as setup } from "../support/hello-worker.js";
import { expectJson, runBody } from "../support/http.js";

const json = { "content-type": "application/json" };

/** `{"k":{"k":…1…}}`, `levels` objects deep, as raw text (no recursion on either side). */
const nested = (levels: number): string => `${'{"k":'.repeat(levels)}1${"}".repeat(levels)}`;

/** A raw JSON body with `key` spelled literally (a JS object literal would eat `__proto__`). */
const withKey = (prefix: string, key: string, suffix = "") =>
  `${prefix}{${JSON.stringify(key)}: {"polluted": true}}${suffix}`;

describe("hostile keys and shapes are refused with 400 and leave nothing stored", () => {
  const keys = [
    "__proto__",
    "user:__proto__",
    "app:__proto__",
    "constructor",
    "app:constructor",
    "prototype",
  ];

  for (const path of ["/run", "/run_sse"]) {
    it.each(keys)(
      `refuses ${path} with stateDelta key %s, stores nothing, and keeps no lease`,
      async (key) => {
        const { call, sessions, app, user, session, fake } = setup();
        await sessions.create({ sessionId: session });
        const start = JSON.stringify(runBody(app, user, session, "hi")).slice(0, -1);
        const body = withKey(`${start}, "stateDelta": `, key, "}");
        const res = await call(path, { method: "POST", headers: json, body });
        const error = await expectJson<{ detail: string }>(res, 400);
        expect(error.detail).toContain(key.replace(/^(app|user):/, ""));
        expect(await sessions.get(session)).toMatchObject({ events: [], state: {} });
        expect((await fake.calls()).calls).toEqual([]);
        const next = await call("/run", { method: "POST", json: runBody(app, user, session, "again") });
        expect(next.status).toBe(200);
      },
    );
  }

  it.each(keys)("refuses a new session whose state holds %s, and creates no session", async (key) => {
    const { call, app, user, session } = setup();
    const body = withKey(`{"sessionId": "${session}", "state": `, key, "}");
    const res = await call(`/apps/${app}/users/${user}/sessions`, { method: "POST", headers: json, body });
    expect((await expectJson<{ detail: string }>(res, 400)).detail).toMatch(/Refused/);
    await expectJson(call(`/apps/${app}/users/${user}/sessions/${session}`), 404);
    expect(await expectJson(call(`/apps/${app}/users/${user}/sessions`), 200)).toEqual([]);
  });

  it("refuses a seed event whose delta holds a hostile key, and creates no session", async () => {
    const { call, app, user, session } = setup();
    const event = { id: "e1", invocationId: "i1", author: "user", timestamp: 1 };
    const start = JSON.stringify({ sessionId: session, events: [event] }).slice(0, -3);
    const body = withKey(`${start}, "actions": {"stateDelta": `, "user:constructor", "}}]}");
    const res = await call(`/apps/${app}/users/${user}/sessions`, { method: "POST", headers: json, body });
    expect((await expectJson<{ detail: string }>(res, 400)).detail).toContain("constructor");
    await expectJson(call(`/apps/${app}/users/${user}/sessions/${session}`), 404);
  });

  it("refuses seed events with a repeated id as a whole: no session, no shared state", async () => {
    const { call, app, user, session, sessions } = setup();
    const seed = (id: string, delta: Record<string, unknown>) => ({
      id,
      invocationId: "i1",
      author: "user",
      timestamp: 1,
      actions: { stateDelta: delta },
    });
    const events = [seed("e1", { "user:seen": 1, "app:seen": 1 }), seed("e1", { x: 2 })];
    const res = await call(`/apps/${app}/users/${user}/sessions`, {
      method: "POST",
      json: { sessionId: session, events },
    });
    expect(await expectJson(res, 400)).toHaveProperty("detail");
    await expectJson(call(`/apps/${app}/users/${user}/sessions/${session}`), 404);
    const other = await sessions.create({});
    expect(other.state).toEqual({});
  });

  it("refuses PATCH state with a hostile key and stores nothing", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: session });
    const body = withKey('{"stateDelta": ', "app:prototype", "}");
    const url = `/apps/${app}/users/${user}/sessions/${session}`;
    const res = await call(url, { method: "PATCH", headers: json, body });
    expect((await expectJson<{ detail: string }>(res, 400)).detail).toContain("prototype");
    expect(await sessions.get(session)).toMatchObject({ events: [], state: {} });
  });

  it.each([MAX_JSON_DEPTH + 1, 4_000, 100_000])(
    "refuses JSON nested %i levels deep with 400 on every write, before anything is stored",
    async (levels) => {
      const { call, sessions, app, user, session } = setup();
      await sessions.create({ sessionId: session });
      const deep = nested(levels);
      const start = JSON.stringify(runBody(app, user, session, "hi")).slice(0, -1);
      const writes: [string, string, string][] = [
        ["/run", "POST", `${start}, "stateDelta": {"deep": ${deep}}}`],
        ["/run_sse", "POST", `${start}, "customMetadata": {"deep": ${deep}}}`],
        [
          `/apps/${app}/users/${user}/sessions`,
          "POST",
          `{"sessionId": "n-${session}", "state": {"d": ${deep}}}`,
        ],
        [`/apps/${app}/users/${user}/sessions/${session}`, "PATCH", `{"stateDelta": {"d": ${deep}}}`],
      ];
      for (const [path, method, body] of writes) {
        const res = await call(path, { method, headers: json, body });
        expect((await expectJson<{ detail: string }>(res, 400)).detail).toContain(`${MAX_JSON_DEPTH} levels`);
      }
      expect(await sessions.get(session)).toMatchObject({ events: [], state: {} });
      await expectJson(call(`/apps/${app}/users/${user}/sessions/n-${session}`), 404);
    },
  );

  it.each([
    ["a newMessage part", (b: string) => b.replace('"parts":[{', '"parts":[{"__proto__": {"x": 1}, ')],
    ["customMetadata", (b: string) => b.replace(/}$/, ', "customMetadata": {"constructor": {"x": 1}}}')],
  ])("refuses a hostile key in %s of /run with 400, storing nothing", async (_where, inject) => {
    const { call, sessions, app, user, session, fake } = setup();
    await sessions.create({ sessionId: session });
    const body = inject(JSON.stringify(runBody(app, user, session, "hi")));
    const res = await call("/run", { method: "POST", headers: json, body });
    expect((await expectJson<{ detail: string }>(res, 400)).detail).toMatch(/__proto__|constructor/);
    expect(await sessions.get(session)).toMatchObject({ events: [], state: {} });
    expect((await fake.calls()).calls).toEqual([]);
  });

  it("accepts state nested exactly to the limit", async () => {
    const { call, sessions, app, user, session } = setup();
    const body = `{"sessionId": "${session}", "state": {"d": ${nested(MAX_JSON_DEPTH - 2)}}}`;
    const res = await call(`/apps/${app}/users/${user}/sessions`, { method: "POST", headers: json, body });
    expect(res.status).toBe(200);
    expect(Object.keys((await sessions.get(session)).state)).toEqual(["d"]);
  });
});
