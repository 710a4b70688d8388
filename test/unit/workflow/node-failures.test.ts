import { describe, expect, it } from "vitest";
import { node } from "../../../src/workflow/build-node.js";
import type { NodeContext } from "../../../src/workflow/node-context.js";
import { Workflow } from "../../../src/workflow/workflow.js";
import { deferred } from "../support/deferred.js";
import { harness } from "../support/harness.js";
import { visible } from "./workflow-helpers.js";

const fn = (name: string, body: (ctx: NodeContext, input: never) => unknown, settings = {}) =>
  node(body, { name, ...settings });

describe("a failing node (ADK 2.x node errors, Baton's error events)", () => {
  it("ends the turn with one error event authored by the node, at its path, with NODE_ERROR", async () => {
    const boom = fn("boom", () => {
      throw new TypeError("bad input");
    });
    const after = fn("after", () => "never");
    const h = await harness(new Workflow({ name: "w", edges: [["START", boom, after]] }));
    const events = visible(await h.turn("x"));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      author: "boom",
      errorCode: "NODE_ERROR",
      errorMessage: "TypeError: bad input",
      nodeInfo: { path: "w/boom" },
    });
    expect(events[0]?.content).toBeUndefined();
  });

  it("stops the other running nodes of the workflow when one fails", async () => {
    const gate = deferred();
    let sawAbort = false;
    const slow = fn("slow", async (ctx) => {
      ctx.invocation.runConfig.signal?.addEventListener("abort", () => {
        sawAbort = true;
        gate.resolve();
      });
      await gate.promise;
      return "late";
    });
    const boom = fn("boom", () => {
      throw new Error("no");
    });
    const h = await harness(new Workflow({ name: "w", edges: [["START", [slow, boom]]] }));
    const events = visible(await h.turn("x"));
    expect(sawAbort).toBe(true);
    expect(events.map((e) => e.errorCode)).toEqual(["NODE_ERROR"]);
  });

  it("retries a node as its retry config says, waiting the backoff between attempts", async () => {
    let calls = 0;
    const flaky = fn(
      "flaky",
      () => {
        calls++;
        if (calls < 3) throw new Error(`try ${calls}`);
        return "ok";
      },
      { retryConfig: { maxAttempts: 3, initialDelay: 2, backoffFactor: 3, jitter: 0 } },
    );
    const h = await harness(new Workflow({ name: "w", edges: [["START", flaky]] }));
    const events = visible(await h.turn("x"));
    expect(calls).toBe(3);
    expect(events.map((e) => e.output)).toEqual(["ok"]);
    expect(h.services.slept).toEqual([2000, 6000]);
  });

  it("gives up after maxAttempts and records the last failure", async () => {
    let calls = 0;
    const broken = fn(
      "broken",
      () => {
        calls++;
        throw new Error(`try ${calls}`);
      },
      { retryConfig: { maxAttempts: 2, jitter: 0 } },
    );
    const h = await harness(new Workflow({ name: "w", edges: [["START", broken]] }));
    const last = (await h.turn("x")).at(-1);
    expect(calls).toBe(2);
    expect(last?.errorMessage).toBe("Error: try 2");
  });

  it("does not retry a failure its retry config does not name", async () => {
    let calls = 0;
    const picky = fn(
      "picky",
      () => {
        calls++;
        throw new RangeError("out of range");
      },
      { retryConfig: { maxAttempts: 5, exceptions: ["TypeError"] } },
    );
    const h = await harness(new Workflow({ name: "w", edges: [["START", picky]] }));
    await h.turn("x");
    expect(calls).toBe(1);
  });

  it("ends an attempt that outlives its timeout with NODE_TIMEOUT and aborts its signal", async () => {
    let aborted = false;
    const stuck = fn(
      "stuck",
      async (ctx) => {
        ctx.invocation.runConfig.signal?.addEventListener("abort", () => {
          aborted = true;
        });
        await new Promise(() => undefined);
      },
      { timeout: 0.02 },
    );
    const h = await harness(new Workflow({ name: "w", edges: [["START", stuck]] }));
    const last = (await h.turn("x")).at(-1);
    expect(last).toMatchObject({ author: "stuck", errorCode: "NODE_TIMEOUT", nodeInfo: { path: "w/stuck" } });
    expect(last?.errorMessage).toBe("Node 'stuck' timed out after 0.02 seconds.");
    expect(aborted).toBe(true);
  });

  it("fails a node whose output does not match its outputSchema", async () => {
    const { z } = await import("zod");
    const count = fn("count", () => "not a number", { outputSchema: z.number() });
    const h = await harness(new Workflow({ name: "w", edges: [["START", count]] }));
    const last = (await h.turn("x")).at(-1);
    expect(last?.errorCode).toBe("NODE_ERROR");
    expect(last?.errorMessage).toMatch(/output does not match its outputSchema/);
  });

  it("refuses a retry config with negative numbers and a timeout that is not positive", () => {
    expect(() => fn("a", () => 1, { retryConfig: { maxAttempts: -1 } })).toThrow(/finite and >= 0/);
    expect(() => fn("a", () => 1, { timeout: 0 })).toThrow(/timeout must be a positive number/);
  });
});
