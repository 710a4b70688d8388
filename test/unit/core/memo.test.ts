import { describe, expect, it } from "vitest";
import { frozenWithMemo, hasMemo, memoized } from "../../../src/core/memo.js";

const KEY = Symbol("test");

describe("memo slots", () => {
  it("computes once for a value frozen with a slot, and afresh for any other value", () => {
    let runs = 0;
    const compute = () => ++runs;
    const kept = frozenWithMemo({ text: "hi" });
    expect([memoized(kept, KEY, compute), memoized(kept, KEY, compute)]).toEqual([1, 1]);
    const plain = Object.freeze({ text: "hi" });
    expect([memoized(plain, KEY, compute), memoized(plain, KEY, compute)]).toEqual([2, 3]);
    expect([hasMemo(kept), hasMemo(plain)]).toEqual([true, false]);
  });

  it("keeps the slot out of JSON, spreads, structured clones and equality, and freezes the value deeply", () => {
    const kept = frozenWithMemo({ parts: [{ text: "hi" }] });
    memoized(kept, KEY, () => "derived");
    expect(JSON.stringify(kept)).toBe('{"parts":[{"text":"hi"}]}');
    expect(hasMemo({ ...kept })).toBe(false);
    expect(hasMemo(structuredClone(kept))).toBe(false);
    expect(kept).toEqual({ parts: [{ text: "hi" }] });
    expect(Object.isFrozen(kept.parts[0])).toBe(true);
  });

  it("gives a slot to no value that was frozen before it came", () => {
    const frozen = frozenWithMemo(Object.freeze({ text: "hi" }));
    expect(hasMemo(frozen)).toBe(false);
  });
});
