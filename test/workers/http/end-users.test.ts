import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import { helloApp } from "../support/apps.js";
import { fakeModelServer } from "../support/fake-model.js";
import {
  type Call,
  callWorker,
  expectJson,
  freshIds,
  noSleep,
  runBody,
  sseEvents,
  TEST_TOKEN,
} from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";

type Refusal = { detail: string; code: string };

/** Two apps served with service tokens and end-user mode for a fresh test issuer; alice and bob are users. */
async function setup(vars: Record<string, string> = {}) {
  const issuer = await testIssuer();
  const ids = freshIds("users");
  const other = `${ids.app}-other`;
  const fake = fakeModelServer();
  const call = callWorker(
    { apps: [helloApp(ids.app), helloApp(other)], services: { sleep: noSleep, fetch: issuer.fetch } },
    { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl(), ...issuer.vars, ...vars },
  );
  const alice = `alice-${ids.id}`;
  const bob = `bob-${ids.id}`;
  const as =
    (token: string | null): Call =>
    (path, init = {}) =>
      call(path, { token, ...init });
  return { ...ids, other, issuer, fake, call, alice, bob, as };
}

const sessionsPath = (app: string, user: string) => `/apps/${app}/users/${user}/sessions`;

/** What the service token sees of a session: its events' ids and its state. */
async function snapshot(call: Call, app: string, user: string, session: string) {
  const stored = await expectJson<Session>(call(`${sessionsPath(app, user)}/${session}`), 200);
  return { events: stored.events.map((e) => e.id), state: stored.state };
}

describe("end-user mode: a verified JWT reaches only its subject's sessions", () => {
  it("lets alice create, list, read, run in, patch and delete her own sessions with her token", async () => {
    const { app, issuer, alice, as } = await setup();
    const asAlice = as(await issuer.token({ sub: alice }));
    const base = sessionsPath(app, alice);
    const created = await expectJson<Session>(
      asAlice(base, { method: "POST", json: { state: { x: 1 } } }),
      200,
    );
    expect(created.userId).toBe(alice);
    expect(await expectJson<Session[]>(asAlice(base), 200)).toHaveLength(1);
    const run = runBody(app, alice, created.id, "hi", { stateDelta: { "user:tone": "warm" } });
    const events = await expectJson<Event[]>(asAlice("/run", { method: "POST", json: run }), 200);
    expect(events.at(-1)?.errorCode).toBeUndefined();
    const sse = await asAlice("/run_sse", { method: "POST", json: runBody(app, alice, created.id, "again") });
    expect((await sseEvents(sse)).length).toBeGreaterThan(0);
    const patch = { method: "PATCH", json: { stateDelta: { y: 2 } } };
    expect((await expectJson<Session>(asAlice(`${base}/${created.id}`, patch), 200)).state).toMatchObject({
      x: 1,
      y: 2,
      "user:tone": "warm",
    });
    await expectJson(asAlice(`${base}/${created.id}`, { method: "DELETE" }), 200);
    await expectJson(asAlice(`${base}/${created.id}`), 404);
  });

  it("refuses alice's token on bob's session with 403 (read, list, create, patch, run, run_sse, delete) and changes nothing", async () => {
    const { app, session, issuer, alice, bob, call, as, fake } = await setup();
    await expectJson(call(sessionsPath(app, bob), { method: "POST", json: { sessionId: session } }), 200);
    await expectJson(call("/run", { method: "POST", json: runBody(app, bob, session, "bob's turn") }), 200);
    const before = await snapshot(call, app, bob, session);
    const modelCalls = (await fake.calls()).calls.length;
    const asAlice = as(await issuer.token({ sub: alice }));
    const bobs = `${sessionsPath(app, bob)}/${session}`;
    const attempts: [string, Parameters<Call>[1]][] = [
      [bobs, {}],
      [sessionsPath(app, bob), {}],
      [sessionsPath(app, bob), { method: "POST", json: { sessionId: `x-${session}` } }],
      [bobs, { method: "PATCH", json: { stateDelta: { stolen: true } } }],
      ["/run", { method: "POST", json: runBody(app, bob, session, "alice was here") }],
      ["/run_sse", { method: "POST", json: runBody(app, bob, session, "alice was here") }],
      [`/dev${bobs}/events/${before.events[0]}/graph`, {}],
      [bobs, { method: "DELETE" }],
    ];
    for (const [path, init] of attempts) {
      const refusal = await expectJson<Refusal>(asAlice(path, init), 403);
      expect(refusal).toMatchObject({ code: "forbidden" });
      expect(refusal.detail).toContain(bob);
    }
    expect(await snapshot(call, app, bob, session)).toEqual(before);
    expect((await fake.calls()).calls).toHaveLength(modelCalls);
    await expectJson(call(`${sessionsPath(app, bob)}/x-${session}`), 404);
  });

  it("shows alice only her own traces of a session id she shares with bob, and refuses ?user_id=bob with 403", async () => {
    const { app, session, issuer, alice, bob, call, as } = await setup();
    for (const user of [alice, bob]) {
      await expectJson(call(sessionsPath(app, user), { method: "POST", json: { sessionId: session } }), 200);
      await expectJson(
        call("/run", { method: "POST", json: runBody(app, user, session, `${user} asks`) }),
        200,
      );
    }
    const traces = `/dev/apps/${app}/debug/trace/session/${session}`;
    const all = await expectJson<unknown[]>(call(traces), 200);
    const asAlice = as(await issuer.token({ sub: alice }));
    const hers = await expectJson<unknown[]>(asAlice(traces), 200);
    expect(hers.length).toBeGreaterThan(0);
    expect(hers.length).toBeLessThan(all.length);
    expect(await expectJson<unknown[]>(asAlice(`/debug/trace/session/${session}`), 200)).toEqual(hers);
    await expectJson(asAlice(`${traces}?user_id=${bob}`), 403);
  });

  it("refuses app: state from an end user with 403 naming the key, storing nothing, while a service token may write it", async () => {
    const { app, session, issuer, alice, call, as } = await setup();
    const asAlice = as(await issuer.token({ sub: alice }));
    const base = sessionsPath(app, alice);
    await expectJson(asAlice(base, { method: "POST", json: { sessionId: session } }), 200);
    const before = await snapshot(call, app, alice, session);
    const seed = { id: "e1", invocationId: "i1", author: "user", timestamp: 1 };
    const attempts: [string, Parameters<Call>[1], string][] = [
      [
        "/run",
        { method: "POST", json: runBody(app, alice, session, "hi", { stateDelta: { "app:plan": "pro" } }) },
        "app:plan",
      ],
      [
        "/run_sse",
        { method: "POST", json: runBody(app, alice, session, "hi", { state_delta: { "app:x": 1 } }) },
        "app:x",
      ],
      [
        `${base}/${session}`,
        { method: "PATCH", json: { stateDelta: { ok: 1, "app:limit": 9 } } },
        "app:limit",
      ],
      [
        base,
        { method: "POST", json: { sessionId: `n-${session}`, state: { "app:flag": true } } },
        "app:flag",
      ],
      [
        base,
        {
          method: "POST",
          json: {
            sessionId: `n-${session}`,
            events: [{ ...seed, actions: { stateDelta: { "app:seeded": 1 } } }],
          },
        },
        "app:seeded",
      ],
    ];
    for (const [path, init, key] of attempts) {
      const refusal = await expectJson<Refusal>(asAlice(path, init), 403);
      expect(refusal.code).toBe("forbidden");
      expect(refusal.detail).toContain(`"${key}"`);
    }
    expect(await snapshot(call, app, alice, session)).toEqual(before);
    await expectJson(call(`${base}/n-${session}`), 404);
    const patched = await expectJson<Session>(
      call(`${base}/${session}`, { method: "PATCH", json: { stateDelta: { "app:plan": "pro" } } }),
      200,
    );
    expect(patched.state).toMatchObject({ "app:plan": "pro" });
  });

  it.each([
    ["expired", { exp: -60 }, {}, "expired"],
    ["not yet valid", { nbf: 3600 }, {}, "not valid yet"],
    ["for another audience", { aud: "someone-else" }, {}, "another audience"],
    ["from another issuer", { iss: "https://evil.test/" }, {}, "another issuer"],
    ["badly signed", {}, { forged: true }, "signature does not match"],
    ["signed with an unknown key", {}, { kid: "nope" }, "unknown key"],
    ["without an expiry", { exp: undefined }, {}, "no expiry"],
    ["without a subject", { sub: undefined }, {}, "subject"],
    ["signed with a symmetric algorithm", {}, { alg: "HS256" }, "algorithm"],
  ])("refuses a token %s with 401 saying why", async (_name, claims, options, reason) => {
    const { app, issuer, alice, as } = await setup();
    const at = issuer.now();
    const relative = Object.fromEntries(
      Object.entries(claims).map(([k, v]) => [
        k,
        (k === "exp" || k === "nbf") && typeof v === "number" ? at + v : v,
      ]),
    );
    const sign = "forged" in options ? { key: issuer.forgerKey } : options;
    const token = await issuer.token({ sub: alice, ...relative }, sign);
    const res = await as(token)(sessionsPath(app, alice));
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    const refusal = await expectJson<Refusal>(res, 401);
    expect(refusal.code).toBe("unauthorized");
    expect(refusal.detail).toContain(reason);
    expect(refusal.detail).not.toContain(token);
  });

  it("keeps service tokens' full access beside end-user mode, and refuses a bearer that is neither", async () => {
    const { app, session, bob, call, as } = await setup();
    await expectJson(call(sessionsPath(app, bob), { method: "POST", json: { sessionId: session } }), 200);
    await expectJson(as(TEST_TOKEN)(`${sessionsPath(app, bob)}/${session}`), 200);
    await expectJson(as("not-a-token")(`${sessionsPath(app, bob)}/${session}`), 401);
    await expectJson(as(null)(`${sessionsPath(app, bob)}/${session}`), 401);
  });

  it("scopes a token to the apps its JWT_APPS_CLAIM claim lists, in list-apps too", async () => {
    const { app, other, issuer, alice, as } = await setup({ JWT_APPS_CLAIM: "baton_apps" });
    const scoped = as(await issuer.token({ sub: alice, baton_apps: [app] }));
    expect(await expectJson(scoped("/list-apps"), 200)).toEqual([app]);
    await expectJson(scoped(sessionsPath(app, alice)), 200);
    const refusal = await expectJson<Refusal>(scoped(sessionsPath(other, alice)), 403);
    expect(refusal.detail).toContain(other);
    await expectJson(scoped("/run", { method: "POST", json: runBody(other, alice, "s", "hi") }), 403);
    await expectJson(scoped(`/dev/apps/${other}/build_graph`), 403);
    const spaced = as(await issuer.token({ sub: alice, baton_apps: `${other} ${app}` }));
    expect(await expectJson<string[]>(spaced("/list-apps"), 200)).toHaveLength(2);
    const unscoped = as(await issuer.token({ sub: alice }));
    expect(await expectJson(unscoped("/list-apps"), 200)).toEqual([]);
    await expectJson(unscoped(sessionsPath(app, alice)), 403);
  });

  it("refuses a token whose sub names an A2A context's or a webhook's user with 403 on those sessions, listing and running included", async () => {
    const { app, session, issuer, call, as } = await setup();
    for (const owner of [`A2A_USER_trip-${session}`, "baton:webhook:github"]) {
      await expectJson(call(sessionsPath(app, owner), { method: "POST", json: { sessionId: session } }), 200);
      const before = await snapshot(call, app, owner, session);
      const asOwner = as(await issuer.token({ sub: owner }));
      for (const path of [sessionsPath(app, owner), `${sessionsPath(app, owner)}/${session}`]) {
        const refusal = await expectJson<Refusal>(asOwner(path), 403);
        expect(refusal.detail).toContain("belongs to Baton's own callers");
      }
      const run = { method: "POST", json: runBody(app, owner, session, "let me in") };
      await expectJson(asOwner("/run", run), 403);
      await expectJson(asOwner(`${sessionsPath(app, owner)}/${session}`, { method: "DELETE" }), 403);
      expect(await snapshot(call, app, owner, session)).toEqual(before);
    }
    // A sub equal to the name a hook gives its user sees its own sessions only, never the hook's.
    const asGithub = as(await issuer.token({ sub: "github" }));
    expect(await expectJson<Session[]>(asGithub(sessionsPath(app, "github")), 200)).toEqual([]);
  });

  it("refuses end users webhook turn status with 403 (A2A serves them in their own sessions: a2a-end-users.test.ts)", async () => {
    const { issuer, alice, as } = await setup();
    const asAlice = as(await issuer.token({ sub: alice }));
    await expectJson(asAlice("/turns/some-turn"), 403);
  });

  it("fetches the issuer's key set once for many requests, and answers 503 while it cannot be read", async () => {
    const { app, issuer, alice, as } = await setup();
    issuer.setJwksDown(true);
    const asAlice = as(await issuer.token({ sub: alice }));
    const down = await expectJson<Refusal>(asAlice(sessionsPath(app, alice)), 503);
    expect(down).toMatchObject({ code: "auth_unavailable" });
    expect(down.detail).toContain(issuer.jwksUrl);
    issuer.setJwksDown(false);
    for (let i = 0; i < 3; i++) await expectJson(asAlice(sessionsPath(app, alice)), 200);
    expect(issuer.jwksFetches()).toBe(2);
  });

  it("refuses every request with 500 invalid_config when JWT_ISSUER is set without the rest", async () => {
    const { app, alice, as } = await setup({ JWT_JWKS_URL: "" });
    const refusal = await expectJson<Refusal>(as(TEST_TOKEN)(sessionsPath(app, alice)), 500);
    expect(refusal.code).toBe("invalid_config");
    expect(refusal.detail).toContain("JWT_JWKS_URL");
  });
});
