import { describe, expect, it } from "vitest";
import { EventSchema } from "../../../src/core/event.js";

const base = { id: "ev-1", invocation_id: "e-1", author: "classify", timestamp: 1.5 };

describe("ADK 2.x event fields (output, nodeInfo, isolationScope, actions.route)", () => {
  it("reads an ADK 1.x event unchanged: none of the new fields appears", () => {
    const event = EventSchema.parse({ ...base, content: { role: "model", parts: [{ text: "hi" }] } });
    expect(Object.keys(event).sort()).toEqual([
      "actions",
      "author",
      "content",
      "id",
      "invocationId",
      "timestamp",
    ]);
    expect(JSON.stringify(event)).not.toMatch(/nodeInfo|output|isolationScope|route/);
  });

  it("reads Python's snake_case fields and writes them camelCase", () => {
    const event = EventSchema.parse({
      ...base,
      output: { kind: "question" },
      node_info: {
        path: "triage/classify",
        output_for: ["triage/classify", "triage"],
        message_as_output: true,
      },
      isolation_scope: "triage/ask@1",
      actions: { state_delta: {}, route: ["question", 2, true] },
    });
    expect(JSON.parse(JSON.stringify(event))).toMatchObject({
      output: { kind: "question" },
      nodeInfo: { path: "triage/classify", outputFor: ["triage/classify", "triage"], messageAsOutput: true },
      isolationScope: "triage/ask@1",
      actions: { route: ["question", 2, true] },
    });
  });

  it("moves ADK TypeScript's top-level route into actions.route", () => {
    expect(EventSchema.parse({ ...base, route: "yes" }).actions.route).toBe("yes");
    expect(EventSchema.parse({ ...base, route: 3, actions: { stateDelta: { a: 1 } } }).actions).toMatchObject(
      {
        route: 3,
        stateDelta: { a: 1 },
      },
    );
  });

  it("keeps the route in actions when both carry one", () => {
    expect(EventSchema.parse({ ...base, route: "top", actions: { route: "inner" } }).actions.route).toBe(
      "inner",
    );
  });

  it("reads a null output as no output, as pydantic's exclude_none writes it", () => {
    expect("output" in EventSchema.parse({ ...base, output: null })).toBe(false);
  });

  it("keeps falsy outputs (0, false, an empty string)", () => {
    for (const output of [0, false, ""]) expect(EventSchema.parse({ ...base, output }).output).toBe(output);
  });

  it("refuses a route that is not a key or a list of keys", () => {
    expect(EventSchema.safeParse({ ...base, actions: { route: { to: "x" } } }).success).toBe(false);
  });

  it("refuses a node path that is not a string", () => {
    expect(EventSchema.safeParse({ ...base, nodeInfo: { path: 7 } }).success).toBe(false);
  });
});
