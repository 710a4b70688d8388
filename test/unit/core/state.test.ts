import { describe, expect, it } from "vitest";
import { mergeScopedState, splitStateDelta, withoutTemp } from "../../../src/core/state.js";

describe("state scopes (ADK-SEMANTICS §4.2)", () => {
  it("splits a delta by its leading prefix only", () => {
    const split = splitStateDelta({ a: 1, "app:b": 2, "user:c": 3, "temp:d": 4, "x:app:y": 5 });
    expect(split).toEqual({
      app: { b: 2 },
      user: { c: 3 },
      session: { a: 1, "x:app:y": 5 },
      temp: { "temp:d": 4 },
    });
  });

  it("drops temp: keys from what is persisted", () => {
    expect(withoutTemp({ a: 1, "temp:d": 4, "user:c": 3 })).toEqual({ a: 1, "user:c": 3 });
  });

  it("re-adds the prefixes when merging scopes for a reader", () => {
    expect(mergeScopedState({ a: 1 }, { b: 2 }, { c: 3 })).toEqual({ a: 1, "app:b": 2, "user:c": 3 });
  });
});
