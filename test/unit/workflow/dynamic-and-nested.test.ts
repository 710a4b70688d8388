import { describe, expect, it } from "vitest";
import { node } from "../../../src/workflow/build-node.js";
import type { NodeContext } from "../../../src/workflow/node-context.js";
import { RequestInput } from "../../../src/workflow/request-input.js";
import { Workflow } from "../../../src/workflow/workflow.js";
import { harness } from "../support/harness.js";
import { answer, interruptOf, lines, send, visible } from "./workflow-helpers.js";

const fn = (name: string, body: (ctx: NodeContext, input: never) => unknown) => node(body, { name });

describe("dynamic workflows: a dynamicEntry runs nodes with ctx.runNode (ADK 2.x)", () => {
  it("numbers each node's runs and places them at <workflow>/<name>@<run>", async () => {
    const double = fn("double", (_c, n: number) => n * 2);
    const wf = new Workflow({
      name: "dyn",
      dynamicEntry: async (ctx) => {
        const a = await ctx.runNode(double, 1);
        const b = await ctx.runNode(double, a.output);
        return `total ${String(b.output)}`;
      },
    });
    const h = await harness(wf);
    expect(lines(await h.turn("go"))).toEqual([
      "double@dyn/double@1 2 => 2",
      "double@dyn/double@2 4 => 4",
      'dyn@- total 4 => "total 4"',
    ]);
  });

  it("hands back finished runs without running them again when it resumes after a question", async () => {
    let fetched = 0;
    const fetchOrder = fn("fetch_order", () => {
      fetched++;
      return { id: 7 };
    });
    const confirm = fn("confirm", () => new RequestInput({ message: "Ship it?" }));
    const wf = new Workflow({
      name: "dyn",
      dynamicEntry: async (ctx) => {
        const order = await ctx.runNode(fetchOrder);
        const reply = await ctx.runNode(confirm, order.output);
        return `shipped ${JSON.stringify(order.output)} (${String(reply.output)})`;
      },
    });
    const h = await harness(wf);
    const id = interruptOf(await h.turn("go"));
    const events = visible(await send(h.runner, answer(id, { result: "yes" })));
    expect(events.at(-1)?.output).toBe('shipped {"id":7} (yes)');
    expect(fetched).toBe(1);
  });

  it("takes a run id of the caller's own, and refuses one that is all digits", async () => {
    const echo = fn("echo", (_c, x: string) => x);
    const ok = new Workflow({
      name: "dyn",
      dynamicEntry: async (ctx) => (await ctx.runNode(echo, "a", { runId: "first" })).output,
    });
    expect(lines(await (await harness(ok)).turn("go"))[0]).toBe('echo@dyn/echo@first a => "a"');
    const bad = new Workflow({
      name: "dyn",
      dynamicEntry: async (ctx) => (await ctx.runNode(echo, "a", { runId: "7" })).output,
    });
    expect((await (await harness(bad)).turn("go")).at(-1)?.errorMessage).toMatch(/Invalid runId '7'/);
  });

  it("fails the workflow when a child fails and the entry does not catch it, at the child's path", async () => {
    const boom = fn("boom", () => {
      throw new Error("down");
    });
    const wf = new Workflow({ name: "dyn", dynamicEntry: async (ctx) => (await ctx.runNode(boom)).output });
    const last = (await (await harness(wf)).turn("go")).at(-1);
    expect(last).toMatchObject({ author: "boom", errorCode: "NODE_ERROR", nodeInfo: { path: "dyn/boom@1" } });
  });
});

describe("nested workflows: a workflow is a node of another (ADK 2.x)", () => {
  it("runs the inner graph on the outer node's input, its nodes at outer/inner/<node>, its output passed on", async () => {
    const trim = fn("trim", (_c, s: string) => s.trim());
    const upper = fn("upper", (_c, s: string) => s.toUpperCase());
    const inner = new Workflow({ name: "clean", edges: [["START", trim, upper]] });
    const wrap = fn("wrap", (_c, s: string) => `[${s}]`);
    const h = await harness(new Workflow({ name: "outer", edges: [["START", inner, wrap]] }));
    expect(lines(await h.turn("  hi  "))).toEqual([
      'trim@outer/clean/trim hi => "hi"',
      'upper@outer/clean/upper HI => "HI"',
      'wrap@outer/wrap [HI] => "[HI]"',
    ]);
  });

  it("pauses the outer workflow on a question asked inside the inner one, and resumes both", async () => {
    const ask = fn("ask", () => new RequestInput({ message: "Name?" }));
    const greet = fn("greet", (_c, name: unknown) => `hello ${String(name)}`);
    const inner = new Workflow({ name: "inner", edges: [["START", ask, greet]] });
    const done = fn("done", (_c, s: string) => `${s}!`);
    const h = await harness(new Workflow({ name: "outer", edges: [["START", inner, done]] }));
    const id = interruptOf(await h.turn("go"));
    expect(lines(await send(h.runner, answer(id, { result: "Ada" })))).toEqual([
      'greet@outer/inner/greet hello Ada => "hello Ada"',
      'done@outer/done hello Ada! => "hello Ada!"',
    ]);
  });
});
