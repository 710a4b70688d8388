import { describe, expect, it } from "vitest";
import { CacheLedger } from "../../../src/session/cache-ledger.js";
import { type CachedRow, SessionCache } from "../../../src/session/session-cache.js";
import { idsOf, makeEvent } from "../../contract/fixtures.js";

const meta = { appName: "a", userId: "u", sessionId: "s", lastUpdateTime: 0, lease: null, epoch: "e1" };
const rows = (from: number, count: number): CachedRow[] =>
  Array.from({ length: count }, (_, i) => ({
    seq: from + i,
    event: makeEvent({ text: `${from + i}` }),
    bytes: 100,
  }));

describe("SessionCache", () => {
  it("answers a window from a partial cache only when it holds every event the window selects", () => {
    const cache = new SessionCache(meta, {});
    const tail = rows(11, 10);
    cache.prepend(tail, false);
    expect(idsOf(cache.window({ numRecentEvents: 4 }) ?? [])).toEqual(
      idsOf(tail.slice(-4).map((r) => r.event)),
    );
    expect(cache.window({ numRecentEvents: 0 })).toEqual([]);
    expect(cache.window({ numRecentEvents: 11 })).toBeUndefined();
    expect(cache.window({})).toBeUndefined();
    expect(cache.window({ afterTimestamp: 0, numRecentEvents: 2 })).toBeUndefined();
    expect(cache.oldestSeq).toBe(11);
  });

  it("answers every window once it holds the log from its start", () => {
    const cache = new SessionCache(meta, {});
    const all = rows(1, 5);
    cache.prepend(all, true);
    const after = all[2]?.event.timestamp ?? 0;
    expect(cache.window({})).toHaveLength(5);
    expect(idsOf(cache.window({ afterTimestamp: after }) ?? [])).toEqual(
      idsOf(all.slice(2).map((r) => r.event)),
    );
  });

  it("drops its oldest events to fit the budget, and then no longer claims the whole log", () => {
    const cache = new SessionCache(meta, {});
    cache.prepend(rows(1, 5), true);
    cache.append(rows(6, 1)[0] as CachedRow);
    expect(cache.bytes).toBe(600);
    cache.trim(250);
    expect(cache.bytes).toBe(200);
    expect(cache.size).toBe(2);
    expect(cache.oldestSeq).toBe(5);
    expect(cache.complete).toBe(false);
    expect(cache.window({})).toBeUndefined();
  });
});

describe("CacheLedger", () => {
  it("drops the least recently charged caches, never the one being charged, once the sum passes the budget", () => {
    const ledger = new CacheLedger(1_000);
    const dropped: string[] = [];
    const [a, b, c] = [{}, {}, {}];
    ledger.charge(a, 400, () => dropped.push("a"));
    ledger.charge(b, 400, () => dropped.push("b"));
    ledger.charge(a, 450, () => dropped.push("a"));
    expect(dropped).toEqual([]);
    ledger.charge(c, 300, () => dropped.push("c"));
    expect(dropped).toEqual(["b"]);
    expect(ledger.total).toBe(750);
    ledger.charge(c, 2_000, () => dropped.push("c"));
    expect(dropped).toEqual(["b", "a"]);
    expect(ledger.total).toBe(2_000);
    ledger.forget(c);
    expect(ledger.total).toBe(0);
  });
});
