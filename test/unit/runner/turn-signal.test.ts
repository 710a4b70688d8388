import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { BatonError } from "../../../src/core/errors.js";
import { createEvent } from "../../../src/core/event.js";
import { watchCancel } from "../../../src/runner/turn-cancel.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { harness } from "../support/harness.js";
import { testServices, text } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

/** Counts the `AbortController`s made while it is installed (the turn's signal is made from one). */
let controllersMade = 0;
class CountedAbortController extends AbortController {
  constructor() {
    super();
    controllersMade++;
  }
}
afterEach(() => {
  vi.unstubAllGlobals();
});
function countControllers(): void {
  controllersMade = 0;
  vi.stubGlobal("AbortController", CountedAbortController);
}

describe("a turn's abort signal is made only when something reads it", () => {
  it("a turn whose model never reads abortSignal makes none; one whose model reads it gets a live one", async () => {
    const ignoring = await harness(new LlmAgent({ name: "root", model: scriptedModel([{ text: "hi" }]) }));
    countControllers();
    expect((await ignoring.turn("hello")).map((e) => e.author)).toEqual(["root"]);
    expect(controllersMade).toBe(0);

    const seen: (AbortSignal | undefined)[] = [];
    const reading = scriptedModel((_i, options: LanguageModelV3CallOptions) => {
      seen.push(options.abortSignal);
      return { text: "hi" };
    });
    const h = await harness(new LlmAgent({ name: "root", model: reading }));
    countControllers();
    await h.turn("hello");
    await h.turn("again");
    expect(controllersMade).toBe(2);
    expect(seen.map((s) => s instanceof AbortSignal && !s.aborted)).toEqual([true, true]);
    expect(seen[0]).not.toBe(seen[1]);
  });

  it("a cancel that lands before anyone read the signal gives an aborted signal at the first read", async () => {
    const store = new InMemorySessionStore();
    const key = { appName: "app", userId: "u", sessionId: "s" };
    await store.createSession(key);
    const services = testServices();
    const userEvent = createEvent({ invocationId: "i-1", author: "user", content: text("hello") }, services);
    const { lease } = await store.beginTurn(key, userEvent);
    const cancel = watchCancel(store, { key, lease }, undefined, () => undefined);
    await store.cancelTurn(key);
    expect((await cancel.settled)?.errorCode).toBe("TURN_CANCELED");
    expect(cancel.signal.aborted).toBe(true);
    expect(cancel.signal.reason).toBeInstanceOf(BatonError);
    expect(cancel.signal.reason).toMatchObject({ code: "turn_canceled" });
  });

  it("the caller's own signal aborts the turn's, read before or after it aborted", async () => {
    const store = new InMemorySessionStore();
    const key = { appName: "app", userId: "u", sessionId: "s" };
    const turn = { key, lease: "lease" };
    const before = new AbortController();
    const early = watchCancel(store, turn, before.signal, () => undefined);
    const signal = early.signal;
    before.abort(new Error("caller gone"));
    expect(signal.aborted).toBe(true);

    const after = new AbortController();
    after.abort(new Error("caller gone"));
    const late = watchCancel(store, turn, after.signal, () => undefined);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toEqual(new Error("caller gone"));
  });
});
