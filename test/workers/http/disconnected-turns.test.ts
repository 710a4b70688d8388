import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BaseAgent } from "../../../src/agents/base-agent.js";
import type { InvocationContext } from "../../../src/agents/invocation-context.js";
import type { Event } from "../../../src/core/event.js";
import type { SessionKey } from "../../../src/core/session.js";
import { createWorker } from "../../../src/handlers/create-worker.js";
import { defineApp } from "../../../src/runner/app.js";
import { deferred } from "../support/gate-agent.js";
import { expectJson, freshIds, runBody, sessionsOf, TEST_TOKEN } from "../support/http.js";
import { sessionStub } from "../support/turn-control.js";

/** Says "one", waits for the test's gate, then says "two": a turn with a frame before and after a pause. */
class TwoStepAgent extends BaseAgent {
  readonly transferPolicy = undefined;
  readonly started = deferred();
  readonly gate = deferred();

  protected override async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    yield ctx.newEvent({ content: { role: "model", parts: [{ text: "one" }] } });
    this.started.resolve();
    await this.gate.promise;
    yield ctx.newEvent({ content: { role: "model", parts: [{ text: "two" }] } });
  }
}

/** Says "one", waits for the test's gate, then fails: a turn whose end is an error, after its client left. */
class FailAfterGateAgent extends TwoStepAgent {
  protected override async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    yield ctx.newEvent({ content: { role: "model", parts: [{ text: "one" }] } });
    this.started.resolve();
    await this.gate.promise;
    throw new Error("the tool blew up");
  }
}

/** A Worker on a two-step app; `send` returns the response and the execution context's settled promise. */
function setup(Agent: typeof TwoStepAgent = TwoStepAgent) {
  const ids = freshIds("gone");
  const agent = new Agent({ name: "root" });
  // The failure is checked in the stored events, so the log port is quiet.
  const services = { log: () => undefined };
  const worker = createWorker({ apps: [defineApp({ name: ids.app, rootAgent: agent })], services });
  const workerEnv = { ...env, API_TOKENS: TEST_TOKEN };
  const send = (path: string, body: unknown, signal?: AbortSignal) => {
    const ctx = createExecutionContext();
    const headers = { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" };
    const init = { method: "POST", headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) };
    // SAFETY: an incoming request differs only in its `cf` object, which no handler reads.
    const request = new Request(`http://baton.test${path}`, init) as Request<
      unknown,
      IncomingRequestCfProperties
    >;
    // The turn runs in its session's object (decision 040): settled once the request's work and the
    // object's turns are.
    // SAFETY: every body this sends is a run request (`runBody`), which names its session.
    const { appName, userId, sessionId } = JSON.parse(init.body) as SessionKey;
    const settled = async () => {
      await waitOnExecutionContext(ctx);
      await sessionStub({ appName, userId, sessionId }).turnsSettled();
    };
    return { response: worker.fetch(request, workerEnv, ctx), settled };
  };
  const call = async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const ctx = createExecutionContext();
    const headers = { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" };
    const body = init.json === undefined ? {} : { body: JSON.stringify(init.json) };
    const req = new Request(`http://baton.test${path}`, { method: init.method ?? "GET", headers, ...body });
    // SAFETY: as above.
    const res = await worker.fetch(req as Request<unknown, IncomingRequestCfProperties>, workerEnv, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
  return { ...ids, agent, send, sessions: sessionsOf(call, ids.app, ids.user), call };
}

const texts = (events: readonly Event[]) => events.map((e) => [e.author, e.content?.parts?.[0]?.text]);
const whole = [
  ["user", "hi"],
  ["root", "one"],
  ["root", "two"],
];

describe("a turn always ends, whatever the client does", () => {
  it("finishes and stores a /run_sse turn whose client left before the first frame, and frees the session", async () => {
    const { app, user, session, agent, send, sessions, call } = setup();
    await sessions.create({ sessionId: session });
    const { response, settled } = send("/run_sse", runBody(app, user, session, "hi"));
    await (await response).body?.cancel("client gone");
    agent.gate.resolve();
    await settled();
    expect(texts(await sessions.eventsOf(session))).toEqual(whole);
    const next = await call("/run", { json: runBody(app, user, session, "hi"), method: "POST" });
    expect(next.status).not.toBe(409);
  });

  it("finishes a /run_sse turn whose client left after the first frame", async () => {
    const { app, user, session, agent, send, sessions, call } = setup();
    await sessions.create({ sessionId: session });
    const { response, settled } = send("/run_sse", runBody(app, user, session, "hi"));
    const reader = (await response).body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('"one"');
    await reader?.cancel("client gone");
    agent.gate.resolve();
    await settled();
    expect(texts(await sessions.eventsOf(session))).toEqual(whole);
    agent.gate.resolve();
    const next = await call("/run", { json: runBody(app, user, session, "again"), method: "POST" });
    expect(next.status).toBe(200);
  });

  it("finishes a /run turn whose request was aborted while it ran", async () => {
    const { app, user, session, agent, send, sessions, call } = setup();
    await sessions.create({ sessionId: session });
    const abort = new AbortController();
    const { response, settled } = send("/run", runBody(app, user, session, "hi"), abort.signal);
    await agent.started.promise;
    abort.abort("client gone");
    agent.gate.resolve();
    await Promise.allSettled([response]);
    await settled();
    expect(texts(await sessions.eventsOf(session))).toEqual(whole);
    await expectJson(call("/run", { json: runBody(app, user, session, "again"), method: "POST" }), 200);
  });

  it("stores the error event of a /run_sse turn that failed after its client left, and frees the session", async () => {
    const { app, user, session, agent, send, sessions, call } = setup(FailAfterGateAgent);
    await sessions.create({ sessionId: session });
    const { response, settled } = send("/run_sse", runBody(app, user, session, "hi"));
    const reader = (await response).body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toContain('"one"');
    await reader?.cancel("client gone");
    agent.gate.resolve();
    await settled();
    const stored = await sessions.eventsOf(session);
    expect(stored.map((e) => [e.author, e.errorCode])).toEqual([
      ["user", undefined],
      ["root", undefined],
      ["root", "AGENT_ERROR"],
    ]);
    expect(stored.at(-1)?.errorMessage).toContain("the tool blew up");
    await expectJson(call("/run", { json: runBody(app, user, session, "again"), method: "POST" }), 200);
  });
});
