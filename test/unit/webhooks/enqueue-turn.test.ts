import { describe, expect, it } from "vitest";
import { type EnqueueDeps, enqueueTurn } from "../../../src/webhooks/enqueue-turn.js";
import type { TurnLedger } from "../../../src/webhooks/ledger-port.js";

const claim = {
  appName: "app",
  origin: "webhook" as const,
  source: "hook",
  deliveryId: "d-1",
  turn: { userId: "u", sessionId: "s", newMessage: { role: "user", parts: [{ text: "hi" }] } },
};

/** A ledger that accepts every delivery and whose word of a sent message settles only when told. */
function ledger() {
  const told: string[] = [];
  let settle: () => void = () => undefined;
  const word = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const book: TurnLedger = {
    turnIdOf: () => "turn-1",
    accept: async ({ fresh }) => ({ created: true, turnId: fresh.turnId, record: null }),
    sent: async ({ fresh }) => {
      await word;
      told.push(fresh.turnId);
    },
    withdraw: async () => undefined,
    turn: () => null,
    line: () => {
      throw new Error("enqueueTurn reads no line");
    },
    joinThread: async () => {
      throw new Error("enqueueTurn joins no mail thread");
    },
  };
  return { book, told, settle };
}

const deps = (book: TurnLedger, extra: Partial<EnqueueDeps> = {}): EnqueueDeps => ({
  ledger: book,
  queue: { send: async () => undefined },
  ids: { uuid: () => "00000000-0000-4000-8000-000000000000" },
  ...extra,
});

describe("enqueueTurn", () => {
  it("answers before the shard hears of the send when the caller keeps work alive after its answer", async () => {
    const { book, told, settle } = ledger();
    const kept: Promise<unknown>[] = [];
    const outcome = await enqueueTurn(claim, deps(book, { afterAnswer: (work) => kept.push(work) }));
    expect(outcome).toEqual({ kind: "accepted", turnId: "turn-1", sessionId: "s" });
    expect(told).toEqual([]);
    expect(kept).toHaveLength(1);
    settle();
    await Promise.all(kept);
    expect(told).toEqual(["turn-1"]);
  });

  it("waits for the shard to hear of the send when nothing keeps work alive after the answer", async () => {
    const { book, told, settle } = ledger();
    const pending = enqueueTurn(claim, deps(book));
    let answered = false;
    void pending.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answered).toBe(false);
    settle();
    await pending;
    expect(told).toEqual(["turn-1"]);
  });
});
