import { describe, expect, it } from "vitest";
import { deepFreeze } from "../../../src/core/frozen.js";

describe("deepFreeze", () => {
  it("freezes every object a value holds", () => {
    const value = deepFreeze({ parts: [{ text: "hi" }], actions: { stateDelta: { a: 1 } } });
    expect(Object.isFrozen(value.parts[0])).toBe(true);
    expect(Object.isFrozen(value.actions.stateDelta)).toBe(true);
  });

  it("freezes what a shallowly frozen object holds", () => {
    const inner = { text: "hi" };
    deepFreeze(Object.freeze({ parts: [inner] }));
    expect(Object.isFrozen(inner)).toBe(true);
  });

  it("returns values that are not objects as they are", () => {
    expect(deepFreeze("text")).toBe("text");
    expect(deepFreeze(null)).toBe(null);
  });
});
