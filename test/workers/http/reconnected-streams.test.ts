import { describe, expect, it } from "vitest";
import { BaseAgent } from "../../../src/agents/base-agent.js";
import type { InvocationContext } from "../../../src/agents/invocation-context.js";
import type { Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import { deferred } from "../support/gate-agent.js";
import {
  callWorker,
  expectJson,
  freshIds,
  noSleep,
  runBody,
  sessionsOf,
  sseFrames,
} from "../support/http.js";

const services = { sleep: noSleep, log: () => undefined };

/** Says "one" and "two", waits at its gate, then says "three" and "four". */
class TwoThenTwo extends BaseAgent {
  readonly transferPolicy = undefined;
  readonly halfway = deferred();
  readonly gate = deferred();

  protected override async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    const say = (text: string) => ctx.newEvent({ content: { role: "model", parts: [{ text }] } });
    yield say("one");
    yield say("two");
    this.halfway.resolve();
    await this.gate.promise;
    yield say("three");
    yield say("four");
  }
}

const textOf = (e: Event) => e.content?.parts?.[0]?.text;

describe("reconnecting to a turn's stream", () => {
  it("gives every /run_sse frame its event's id, and a reconnect with Last-Event-ID exactly the frames after it: stored ones, then live ones", async () => {
    const { app, user, session } = freshIds("reconnect");
    const agent = new TwoThenTwo({ name: "root" });
    const call = callWorker({ apps: [defineApp({ name: app, rootAgent: agent })], services });
    const sessions = sessionsOf(call, app, user);
    await sessions.create({ sessionId: session });

    const running = call("/run_sse", { method: "POST", json: runBody(app, user, session, "go") });
    await agent.halfway.promise;
    const [, one, two] = await sessions.eventsOf(session);
    if (!one || !two) throw new Error("the turn stored no events before its gate");
    const stream = `/apps/${app}/users/${user}/sessions/${session}/invocations/${one.invocationId}/stream`;

    // A client that saw "one" reconnects mid-turn: "two" from storage, then the live rest, then the end.
    const midTurn = await call(stream, { headers: { "Last-Event-ID": one.id } });
    const midFrames = sseFrames(midTurn);
    agent.gate.resolve();
    const live = await midFrames;
    expect(live.map((f) => textOf(f.event))).toEqual(["two", "three", "four"]);
    expect(live.map((f) => f.id)).toEqual(live.map((f) => f.event.id));

    const original = await sseFrames(await running);
    expect(original.map((f) => textOf(f.event))).toEqual(["one", "two", "three", "four"]);
    expect(original.map((f) => f.id)).toEqual(original.map((f) => f.event.id));
    expect(live).toEqual(original.slice(1));

    // After the turn: exactly the stored frames after the last one seen; none after the last; all without.
    const reconnect = (id?: string) =>
      call(stream, id === undefined ? {} : { headers: { "Last-Event-ID": id } });
    expect(await sseFrames(await reconnect(original[1]?.id))).toEqual(original.slice(2));
    expect(await sseFrames(await reconnect(original[3]?.id))).toEqual([]);
    expect(await sseFrames(await reconnect())).toEqual(original);
  });

  it("answers 404 for an invocation the session never had", async () => {
    const { app, user, session } = freshIds("unknown");
    const call = callWorker({
      apps: [defineApp({ name: app, rootAgent: new TwoThenTwo({ name: "root" }) })],
      services,
    });
    await sessionsOf(call, app, user).create({ sessionId: session });
    const path = `/apps/${app}/users/${user}/sessions/${session}/invocations/e-nope/stream`;
    expect(await expectJson(call(path), 404)).toMatchObject({ code: "not_found" });
  });
});
