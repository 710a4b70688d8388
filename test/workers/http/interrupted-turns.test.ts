import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { userText } from "../../../src/core/content.js";
import { createEvent, type Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { DEFAULT_LEASE_TTL_MS } from "../../../src/session/lease.js";
import { helloApp } from "../support/apps.js";
import { fakeModelServer } from "../support/fake-model.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";
import { elapseLease as elapse, heldModel, newLifetime, sessionStub } from "../support/turn-control.js";

// The lost lease is checked in the stored events and frames, so the log port is quiet.
const services = { sleep: noSleep, log: () => undefined };
const eventEnv = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => Date.now() } };

/** An event of the `root` agent with this text. */
const rootText = (invocationId: string, text: string) =>
  createEvent({ invocationId, author: "root", content: { role: "model", parts: [{ text }] } }, eventEnv);

describe("interrupted turns over HTTP", () => {
  it("keeps every event of a turn whose isolate died, refuses new turns until the turn was resumed, then runs the new one after it", async () => {
    const fake = fakeModelServer();
    const { app, user, session } = freshIds("crash");
    const call = callWorker(
      { apps: [helloApp(app)], services },
      { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() },
    );
    const sessions = sessionsOf(call, app, user);
    await sessions.create({ sessionId: session });
    const key = { appName: app, userId: user, sessionId: session };

    // A turn begun and appended to through the store, then its object aborted: no endTurn ever comes.
    const store = new DurableObjectSessionStore(env);
    const invocationId = "e-crashed";
    const userEvent = createEvent({ invocationId, author: "user", content: userText("first") }, eventEnv);
    const { lease } = await store.beginTurn(key, userEvent);
    const halfDone = [rootText(invocationId, "one"), rootText(invocationId, "two")];
    for (const event of halfDone) await store.appendEvent(key, event, { lease });
    await newLifetime(key);
    const crashed = [userEvent, ...halfDone];
    expect(await sessions.eventsOf(session)).toEqual(crashed);

    const refused = call("/run", { method: "POST", json: runBody(app, user, session, "again?") });
    expect(await expectJson(refused, 409)).toMatchObject({ code: "session_busy" });
    expect(await sessions.eventsOf(session)).toEqual(crashed);

    // Its lease lapsed, but the dead turn goes first: a new message still waits for its resume (decision 047).
    await elapse(key, DEFAULT_LEASE_TTL_MS + 2_000);
    const first = call("/run", { method: "POST", json: runBody(app, user, session, "again?") });
    expect(await expectJson(first, 409)).toMatchObject({ code: "session_busy" });
    expect(await runDurableObjectAlarm(sessionStub(key))).toBe(true);
    await sessionStub(key).turnsSettled();
    const events = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(app, user, session, "again?") }),
      200,
    );
    expect(events.map((e) => e.content?.parts?.[0]?.text)).toEqual(["hello-model answers: again?"]);
    const after = await sessions.eventsOf(session);
    expect(after.slice(0, 3)).toEqual(crashed);
    // The dead turn's last event was already a final answer: its resume ran nothing more.
    expect(after.slice(3).map((e) => [e.author, e.invocationId, e.content?.parts?.[0]?.text])).toEqual([
      ["user", events[0]?.invocationId, "again?"],
      ["root", events[0]?.invocationId, "hello-model answers: again?"],
    ]);
    // The dead turn cannot write into the session any more.
    const late = rootText(invocationId, "three");
    await expect(store.appendEvent(key, late, { lease })).rejects.toMatchObject({ code: "lease_lost" });
  });

  it("ends a /run_sse turn that lost its lease mid-way with an error frame, and writes nothing more", async () => {
    const { app, user, session } = freshIds("lost");
    const held = heldModel();
    const heldApp = defineApp({ name: app, rootAgent: new LlmAgent({ name: "root", model: held.model }) });
    const call = callWorker({ apps: [heldApp], services });
    const sessions = sessionsOf(call, app, user);
    await sessions.create({ sessionId: session });
    const key = { appName: app, userId: user, sessionId: session };

    const pending = call("/run_sse", { method: "POST", json: runBody(app, user, session, "slow one") });
    await held.started;
    // While the model thinks, the lease lapses and the same invocation is taken over (a resume elsewhere).
    await elapse(key, DEFAULT_LEASE_TTL_MS);
    const [slow] = await sessions.eventsOf(session);
    if (!slow) throw new Error("the turn stored no user event");
    const store = new DurableObjectSessionStore(env);
    await store.beginTurn(key, slow);
    held.release();

    const res = await pending;
    expect(res.status).toBe(200);
    const frames = (await res.text()).split("\n\n").filter((f) => f !== "");
    expect(frames).toEqual([expect.stringMatching(/^data: /)]);
    expect(JSON.parse(frames[0]?.slice("data: ".length) ?? "")).toEqual({
      error: expect.stringMatching(/^BatonError: The turn's lease on session .* lapsed or was taken over$/),
      error_details: { code: "lease_lost" },
    });
    const stored = await sessions.eventsOf(session);
    expect(stored.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([["user", "slow one"]]);
    // The turn that took over still holds the session: the failed turn's cleanup did not release it.
    const busy = call("/run", { method: "POST", json: runBody(app, user, session, "anyone?") });
    expect(await expectJson(busy, 409)).toMatchObject({ code: "session_busy" });
  });

  it("refuses a new invocation's begin while a turn that did not end waits for its resume, even after its lease lapsed", async () => {
    const { app, user } = freshIds("marked");
    const store = new DurableObjectSessionStore(env);
    const key = { appName: app, userId: user, sessionId: "s1" };
    await store.createSession(key);
    const dead = createEvent({ invocationId: "e-dead", author: "user", content: userText("one") }, eventEnv);
    await store.beginTurn(key, dead);
    await newLifetime(key);
    await elapse(key, DEFAULT_LEASE_TTL_MS + 5_000);
    const other = createEvent(
      { invocationId: "e-other", author: "user", content: userText("two") },
      eventEnv,
    );
    await expect(store.beginTurn(key, other)).rejects.toMatchObject({ code: "session_busy" });
    // The dead invocation's own begin (its resume) takes the session, and once it ended the other may.
    const resumed = await store.beginTurn(key, dead);
    expect(resumed.resumed).toBe(true);
    await store.endTurn(key, resumed.lease);
    await expect(store.beginTurn(key, other)).resolves.toMatchObject({ resumed: false });
    expect((await store.getSession(key))?.events.map((e) => e.id)).toEqual([dead.id, other.id]);
  });

  it("forgets a turn that did not end when its session is deleted: the session made again under its id takes a new turn", async () => {
    const { app, user } = freshIds("deleted");
    const store = new DurableObjectSessionStore(env);
    const key = { appName: app, userId: user, sessionId: "s1" };
    await store.createSession(key);
    const dead = createEvent({ invocationId: "e-dead", author: "user", content: userText("one") }, eventEnv);
    await store.beginTurn(key, dead);
    await store.deleteSession(key);
    await store.createSession(key);
    const fresh = createEvent(
      { invocationId: "e-fresh", author: "user", content: userText("two") },
      eventEnv,
    );
    await expect(store.beginTurn(key, fresh)).resolves.toMatchObject({ resumed: false });
  });
});
