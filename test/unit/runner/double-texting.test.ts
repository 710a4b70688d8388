import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import type { DoubleTextingConfig } from "../../../src/core/session-store.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { gatedModel } from "../support/gated-model.js";
import { collect, testServices, text } from "../support/run-helpers.js";

/**
 * A runner over the in-memory store (on the real clock, so debounce windows pass) whose model waits at a
 * gate; `turn` sends a message and answers its events, or the refusal it got.
 */
async function session(doubleTexting: DoubleTextingConfig) {
  const model = gatedModel();
  const store = new InMemorySessionStore();
  /** When each model call came (ms). */
  const calledAt: number[] = [];
  const timed = {
    ...model.model,
    doGenerate: (options: Parameters<typeof model.model.doGenerate>[0]) => {
      calledAt.push(Date.now());
      return model.model.doGenerate(options);
    },
  };
  const rootAgent = new LlmAgent({ name: "root", model: timed });
  const runner = new Runner({
    app: defineApp({ name: "texting", rootAgent, doubleTexting }),
    sessionStore: store,
    services: { ...testServices(), clock: { now: () => Date.now() } },
  });
  const key = { appName: "texting", userId: "u", sessionId: `s-${crypto.randomUUID()}` };
  await store.createSession(key);
  const turn = (message: string): Promise<Event[] | { refused: string }> =>
    collect(runner, { userId: "u", sessionId: key.sessionId, newMessage: text(message) }).catch(
      (error: { code?: string }) => ({ refused: error.code ?? String(error) }),
    );
  const stored = async () =>
    ((await store.getSession(key))?.events ?? []).map((e) => [
      e.author,
      (e.content?.parts ?? []).map((p) => p.text?.split(".")[0]).join("|"),
    ]);
  return { model, store, key, turn, stored, calledAt };
}

const invocations = (events: Event[] | { refused: string }) =>
  "refused" in events ? events : [...new Set(events.map((e) => e.invocationId))];

describe("double texting: latest, merge and a debounce window", () => {
  it("latest: a newer message replaces every message still waiting; the replaced are refused and never stored", async () => {
    const s = await session("latest");
    const first = s.turn("one");
    await s.model.waiting(1);
    const two = s.turn("two");
    const three = s.turn("three");
    const four = s.turn("four");
    s.model.open();
    expect(await two).toEqual({ refused: "message_replaced" });
    expect(await three).toEqual({ refused: "message_replaced" });
    expect(await first).not.toHaveProperty("refused");
    expect(await four).not.toHaveProperty("refused");
    expect(s.model.asked).toEqual(["one", "four"]);
    expect(await s.stored()).toEqual([
      ["user", "one"],
      ["root", expect.any(String)],
      ["user", "four"],
      ["root", expect.any(String)],
    ]);
  });

  it("merge: the messages that waited together are one user event, parts in arrival order, and each request gets that one turn's answer", async () => {
    const s = await session("merge");
    const first = s.turn("one");
    await s.model.waiting(1);
    const two = s.turn("two");
    const three = s.turn("three");
    s.model.open();
    const [merged, joined] = [await two, await three];
    expect(await first).not.toHaveProperty("refused");
    expect(s.model.asked).toEqual(["one", "twothree"]);
    expect(await s.stored()).toEqual([
      ["user", "one"],
      ["root", expect.any(String)],
      ["user", "two|three"],
      ["root", expect.any(String)],
    ]);
    // Both requests are answered by the merged turn: the same invocation, the same events.
    expect(invocations(merged)).toHaveLength(1);
    expect(invocations(joined)).toEqual(invocations(merged));
    expect(joined).toEqual(merged);
  });

  it("merge with a debounce window: messages to a free session within the window run as one turn", async () => {
    const s = await session({ mode: "merge", debounceMs: 40 });
    s.model.open();
    const [one, two] = await Promise.all([s.turn("one"), s.turn("two")]);
    expect(s.model.asked).toEqual(["onetwo"]);
    expect(invocations(two)).toEqual(invocations(one));
    expect(await s.stored()).toEqual([
      ["user", "one|two"],
      ["root", expect.any(String)],
    ]);
  });

  it("enqueue with a debounce window: a burst to a free session runs one turn per message, in order, once it ended", async () => {
    const s = await session({ mode: "enqueue", debounceMs: 80 });
    s.model.open();
    const sent = Date.now();
    const turns = await Promise.all([s.turn("one"), s.turn("two"), s.turn("three")]);
    // Nothing ran before the window after the last message passed.
    expect(s.calledAt[0]).toBeGreaterThanOrEqual(sent + 80);
    expect(s.model.asked).toEqual(["one", "two", "three"]);
    const ids = turns.map(invocations);
    expect(ids.every((t) => Array.isArray(t) && t.length === 1)).toBe(true);
    expect(new Set(ids.flat()).size).toBe(3);
    expect((await s.stored()).map(([author]) => author)).toEqual([
      "user",
      "root",
      "user",
      "root",
      "user",
      "root",
    ]);
  });

  it("refuses a doubleTexting it does not know, a window on a mode that does not wait, and a window out of range", () => {
    const rootAgent = new LlmAgent({ name: "root", model: gatedModel().model });
    const app = (doubleTexting: unknown) =>
      // SAFETY: the point is a value the type would refuse, as an untyped config would carry it.
      defineApp({ name: "bad", rootAgent, doubleTexting: doubleTexting as DoubleTextingConfig });
    const refused = /doubleTexting must be "reject", "enqueue", "interrupt", "latest", "merge" or \{ mode/;
    expect(() => app("queue")).toThrow(refused);
    expect(() => app({ mode: "reject", debounceMs: 100 })).toThrow(refused);
    expect(() => app({ mode: "merge", debounceMs: -1 })).toThrow(refused);
    expect(() => app({ mode: "merge", debounceMs: 60_001 })).toThrow(refused);
    expect(() => app({ mode: "merge", debounceMs: Number.NaN })).toThrow(refused);
    expect(() => app({ mode: "merge", debounceMs: 500 })).not.toThrow();
  });
});
