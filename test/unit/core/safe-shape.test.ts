import { describe, expect, it } from "vitest";
import { assertSafeShape, assertSafeState, MAX_JSON_DEPTH } from "../../../src/core/safe-shape.js";

const nested = (depth: number): unknown => {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe("assertSafeShape", () => {
  it("accepts JSON as deep as the limit allows, arrays and objects alike", () => {
    expect(() => assertSafeShape(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => assertSafeShape({ list: [1, { ok: [true, null] }], text: "x" })).not.toThrow();
  });

  it("refuses one level deeper, naming the first eight keys of its path", () => {
    expect(() => assertSafeShape(nested(MAX_JSON_DEPTH + 1), "body")).toThrow(
      `body.a.a.a.a.a.a.a.a.… nests deeper than ${MAX_JSON_DEPTH} levels.`,
    );
  });

  it("refuses a forbidden key at any depth, naming where it sits", () => {
    const value = JSON.parse('{"events":[{"content":{"__proto__":{"polluted":true}}}]}');
    expect(() => assertSafeShape(value, "body")).toThrow('Refused key "__proto__" in body.events.0.content.');
  });

  it("refuses a forbidden state key, bare or behind a scope prefix", () => {
    expect(() => assertSafeState({ "user:constructor": 1 })).toThrow('Refused state key "user:constructor"');
    expect(() => assertSafeState({ ok: { prototype: 1 } }, "stateDelta")).toThrow(
      'Refused key "prototype" in stateDelta.ok.',
    );
  });
});
