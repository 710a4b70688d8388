import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import type { DoubleTexting } from "../../../src/core/session-store.js";
import { gatedModel } from "../support/gated-model.js";
import { harness } from "../support/harness.js";

/** A runner over the in-memory store whose root agent's model waits at a gate. */
async function gated(doubleTexting?: DoubleTexting) {
  const model = gatedModel();
  const h = await harness(
    new LlmAgent({ name: "root", model: model.model }),
    doubleTexting ? { doubleTexting } : {},
  );
  const said = async () =>
    (await h.session()).events.map(
      (e) => `${e.author}: ${e.errorCode ?? e.content?.parts?.[0]?.text?.split(".")[0]}`,
    );
  return { ...h, model, said };
}

const errorCodes = (events: readonly Event[]) => events.map((e) => e.errorCode);

describe("the in-memory store stops turns as a session object does", () => {
  it("cancelTurn stores TURN_CANCELED, frees the session and aborts the running model call", async () => {
    const h = await gated();
    const running = h.turn("slow");
    await h.model.waiting(1);
    const event = await h.store.cancelTurn(h.key);
    expect(event).toMatchObject({ author: "root", errorCode: "TURN_CANCELED" });
    expect(errorCodes(await running)).toEqual(["TURN_CANCELED"]);
    expect(h.model.counts.aborted).toBe(1);
    expect(await h.store.cancelTurn(h.key)).toBeNull();
    h.model.open();
    expect((await h.turn("next")).map((e) => e.author)).toEqual(["root"]);
    expect((await h.said()).slice(0, 3)).toEqual(["user: slow", "root: TURN_CANCELED", "user: next"]);
  });

  it("enqueue runs waiting turns in arrival order; interrupt answers the newest", async () => {
    const queued = await gated("enqueue");
    const turns = [queued.turn("one")];
    await queued.model.waiting(1);
    turns.push(queued.turn("two"), queued.turn("three"));
    queued.model.open();
    await Promise.all(turns);
    expect(queued.model.asked).toEqual(["one", "two", "three"]);

    const interrupting = await gated("interrupt");
    const old = interrupting.turn("old");
    await interrupting.model.waiting(1);
    const fresh = interrupting.turn("new");
    await interrupting.model.waiting(2);
    interrupting.model.open();
    expect(errorCodes(await old)).toEqual(["TURN_CANCELED"]);
    expect((await fresh).map((e) => e.author)).toEqual(["root"]);
    expect((await interrupting.said()).map((s) => s.split(":")[0])).toEqual(["user", "root", "user", "root"]);
  });

  it("followInvocation replays what followed an event, then the live events until the turn ends", async () => {
    const h = await gated();
    const running = h.turn("hello");
    await h.model.waiting(1);
    const [userEvent] = (await h.session()).events;
    if (!userEvent) throw new Error("no user event");
    const follow = await h.store.followInvocation(h.key, userEvent.invocationId);
    if (!follow) throw new Error("the running invocation is unknown");
    const seen: Event[] = [];
    const read = (async () => {
      for await (const event of follow) seen.push(event);
    })();
    h.model.open();
    const events = await running;
    await read;
    expect(seen).toEqual(events);
    const after = await h.store.followInvocation(h.key, userEvent.invocationId, events[0]?.id);
    const replayed: Event[] = [];
    for await (const event of after ?? []) replayed.push(event);
    expect(replayed).toEqual([]);
    expect(await h.store.followInvocation(h.key, "e-unknown")).toBeNull();
  });
});
