import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { windowAnswer } from "../../../src/session/held-rows.js";
import { IsolateEventCache } from "../../../src/session/isolate-event-cache.js";
import type { CachedRow } from "../../../src/session/session-cache.js";
import { idsOf, makeEvent } from "../../contract/fixtures.js";

/** A log of `count` rows from seq 1, each `bytes` long. */
const log = (count: number, bytes = 100): CachedRow[] =>
  Array.from({ length: count }, (_, i) => ({ seq: i + 1, bytes, event: makeEvent({ text: `${i + 1}` }) }));

/** A copy of each event, as the object's answer reaches the Worker over RPC. */
const overRpc = (events: readonly Event[]): Event[] => events.map((e) => structuredClone(e));

/** One `beginTurn` as the store runs it: what the cache holds, the object's answer, the assembled window. */
function begin(cache: IsolateEventCache, name: string, rows: readonly CachedRow[], epoch = "e1") {
  const { held, window } = cache.held(name);
  const answer = windowAnswer(rows, epoch, held);
  const events = cache.assemble(name, window, answer.rows, overRpc(answer.events));
  return { events, sent: answer.events.length };
}

describe("IsolateEventCache", () => {
  it("reuses what it holds: the second read of a grown log sends only the new rows and assembles the whole", () => {
    const cache = new IsolateEventCache();
    const rows = log(12);
    expect(begin(cache, "s", rows.slice(0, 10)).sent).toBe(10);
    const second = begin(cache, "s", rows);
    expect(second.sent).toBe(2);
    expect(idsOf(second.events)).toEqual(idsOf(rows.map((r) => r.event)));
    expect(cache.usage).toEqual({ sessions: 1, bytes: 1200 });
  });

  it("moves a window along: it holds only the window's events, from the window's first seq", () => {
    const cache = new IsolateEventCache();
    const rows = log(30);
    begin(cache, "s", rows.slice(10, 20));
    const moved = begin(cache, "s", rows.slice(14, 24));
    expect(moved.sent).toBe(4);
    expect(idsOf(moved.events)).toEqual(idsOf(rows.slice(14, 24).map((r) => r.event)));
    expect(cache.held("s").held).toMatchObject({ fromSeq: 15, toSeq: 24 });
  });

  it("sends every row when the epoch differs, the last held row is another event, or the seqs have a gap", () => {
    const cache = new IsolateEventCache();
    const rows = log(5);
    begin(cache, "s", rows);
    expect(begin(cache, "s", rows, "e2").sent).toBe(5);
    const rewritten = log(6).map((row) =>
      row.seq === 5 ? { ...row, event: makeEvent({ text: "x" }) } : row,
    );
    expect(begin(cache, "s", rewritten, "e2").sent).toBe(6);
    const gapped = rewritten.map((row) => (row.seq >= 3 ? { ...row, seq: row.seq + 1 } : row));
    expect(begin(cache, "s", gapped, "e2").sent).toBe(6);
  });

  it("drops the least recently used sessions past its session bound", () => {
    const cache = new IsolateEventCache({ sessions: 2, bytes: 10_000 });
    for (const name of ["a", "b", "c"]) begin(cache, name, log(3));
    expect(cache.usage.sessions).toBe(2);
    expect(cache.held("a").held).toBeNull();
    expect(cache.held("c").held).not.toBeNull();
  });

  it("drops the least recently used sessions past its byte bound, and holds no window larger than the bound", () => {
    const cache = new IsolateEventCache({ sessions: 10, bytes: 1_000 });
    begin(cache, "a", log(4));
    begin(cache, "b", log(4));
    begin(cache, "a", log(7));
    expect([cache.held("a").held?.toSeq, cache.held("b").held]).toEqual([7, null]);
    expect(cache.usage.bytes).toBe(700);
    const huge = begin(cache, "huge", log(11));
    expect(huge.events).toHaveLength(11);
    expect([cache.held("huge").held, cache.usage.sessions]).toEqual([null, 1]);
  });

  it("refuses an answer that reuses events it does not hold, and forgets the session", () => {
    const cache = new IsolateEventCache();
    const rows = log(6);
    begin(cache, "s", rows.slice(0, 3));
    const answer = windowAnswer(rows, "e1", {
      epoch: "e1",
      fromSeq: 1,
      toSeq: 4,
      lastId: rows[3]?.event.id ?? "",
    });
    expect(() => cache.assemble("s", cache.held("s").window, answer.rows, answer.events)).toThrow(
      expect.objectContaining({ code: "storage_error" }),
    );
    expect(cache.usage.sessions).toBe(0);
  });

  it("freezes what it holds and hands out a fresh array each time", () => {
    const cache = new IsolateEventCache();
    const rows = log(3);
    const first = begin(cache, "s", rows).events;
    first.push(makeEvent({ text: "pushed by a turn" }));
    const again = begin(cache, "s", rows).events;
    expect(again).toHaveLength(3);
    expect(Object.isFrozen(again[0]?.content)).toBe(true);
  });
});
