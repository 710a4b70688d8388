import { describe, expect, it } from "vitest";
import { node } from "../../../src/workflow/build-node.js";
import { DEFAULT_ROUTE, Edge } from "../../../src/workflow/graph.js";
import { JoinNode } from "../../../src/workflow/join-node.js";
import type { NodeContext } from "../../../src/workflow/node-context.js";
import { Workflow } from "../../../src/workflow/workflow.js";
import { deferred } from "../support/deferred.js";
import { harness } from "../support/harness.js";
import { lines, visible } from "./workflow-helpers.js";

const fn = (name: string, body: (ctx: NodeContext, input: never) => unknown) => node(body, { name });
const upper = fn("upper", (_ctx, text: string) => text.toUpperCase());
const exclaim = fn("exclaim", (_ctx, text: string) => `${text}!`);

describe("a workflow of function nodes (ADK 2.x graph)", () => {
  it("passes each node's output to the next and stores one event per output, at its node's path", async () => {
    const h = await harness(new Workflow({ name: "shout", edges: [["START", upper, exclaim]] }));
    const events = await h.turn("hi");
    expect(lines(events)).toEqual(['upper@shout/upper HI => "HI"', 'exclaim@shout/exclaim HI! => "HI!"']);
    const stored = (await h.session()).events;
    expect(lines(stored.slice(1))).toEqual(lines(events));
    expect(visible(stored).at(-1)?.nodeInfo?.outputFor).toEqual(["shout/exclaim"]);
  });

  it("follows the edge of the route a node emits, and the default route when none matches", async () => {
    const decide = fn("decide", (ctx, text: string) =>
      ctx.newEvent({ actions: { route: text.endsWith("?") ? "question" : "other" } }),
    );
    const question = fn("question", () => "answered");
    const fallback = fn("fallback", () => "filed");
    const wf = new Workflow({
      name: "triage",
      edges: [
        ["START", decide],
        new Edge(decide, question, "question"),
        new Edge(decide, fallback, DEFAULT_ROUTE),
      ],
    });
    const h = await harness(wf);
    expect(lines(await h.turn("why?"))).toEqual([
      'decide@triage/decide route="question"',
      'question@triage/question answered => "answered"',
    ]);
    expect(lines(await h.turn("hello"))).toEqual([
      'decide@triage/decide route="other"',
      'fallback@triage/fallback filed => "filed"',
    ]);
  });

  it("stops a branch whose route matches no edge, and the workflow has no output", async () => {
    const decide = fn("decide", (ctx) => ctx.newEvent({ actions: { route: "nowhere" } }));
    const h = await harness(new Workflow({ name: "w", edges: [["START", decide, { yes: upper }]] }));
    expect(lines(await h.turn("x"))).toEqual(['decide@w/decide route="nowhere"']);
  });

  it("runs a fan-out on branches of their own and joins their outputs by name on the shared branch", async () => {
    const a = fn("a", (_c, x: string) => `A(${x})`);
    const b = fn("b", (_c, x: string) => `B(${x})`);
    const join = new JoinNode({ name: "join" });
    const report = fn("report", (_c, all: Record<string, string>) => `${all.a}+${all.b}`);
    const h = await harness(
      new Workflow({
        name: "fan",
        edges: [
          ["START", [a, b]],
          [a, join],
          [b, join],
          [join, report],
        ],
      }),
    );
    const events = visible(await h.turn("go"));
    expect(events.map((e) => [e.author, e.branch])).toEqual([
      ["a", "a@1"],
      ["b", "b@1"],
      ["join", undefined],
      ["report", undefined],
    ]);
    expect(events[2]?.output).toEqual({ a: "A(go)", b: "B(go)" });
    expect(events[3]?.output).toBe("A(go)+B(go)");
  });

  it("loops through a routed edge until the node takes the exit", async () => {
    const draft = fn("draft", (ctx) => {
      const n = (ctx.state.get<number>("drafts") ?? 0) + 1;
      ctx.state.set("drafts", n);
      return `draft ${n}`;
    });
    const check = fn("check", (ctx, text: string) =>
      ctx.newEvent({ output: text, actions: { route: text === "draft 3" ? "done" : "again" } }),
    );
    const publish = fn("publish", (_c, text: string) => `published ${text}`);
    const h = await harness(
      new Workflow({ name: "loop", edges: [["START", draft, check, { again: draft, done: publish }]] }),
    );
    const events = await h.turn("go");
    expect(lines(events).filter((l) => l.startsWith("draft@"))).toHaveLength(3);
    expect(visible(events).at(-1)?.output).toBe("published draft 3");
    expect((await h.session()).state.drafts).toBe(3);
  });

  it("runs at most maxConcurrency graph nodes at once", async () => {
    let running = 0;
    let most = 0;
    const gates = [deferred(), deferred(), deferred()];
    const worker = (i: number) =>
      fn(`w${i}`, async () => {
        running++;
        most = Math.max(most, running);
        await gates[i]?.promise;
        running--;
        return i;
      });
    const [w0, w1, w2] = [worker(0), worker(1), worker(2)];
    const h = await harness(
      new Workflow({ name: "pool", maxConcurrency: 2, edges: [["START", [w0, w1, w2]]] }),
    );
    const turn = h.turn("go");
    for (const gate of gates) {
      await new Promise((resolve) => setImmediate(resolve));
      gate.resolve();
    }
    await turn.catch(() => undefined);
    expect(most).toBe(2);
  });

  it("fails when two terminal nodes both produce an output", async () => {
    const h = await harness(new Workflow({ name: "two", edges: [["START", [upper, exclaim]]] }));
    const last = (await h.turn("x")).at(-1);
    expect(last?.errorCode).toBe("NODE_ERROR");
    expect(last?.errorMessage).toMatch(/2 terminal nodes produced an output/);
  });

  it("carries state a function node writes on its output event", async () => {
    const remember = fn("remember", (ctx, text: string) => {
      ctx.state.set("last", text);
      return "ok";
    });
    const h = await harness(new Workflow({ name: "w", edges: [["START", remember]] }));
    const [event] = visible(await h.turn("hello"));
    expect(event?.actions.stateDelta).toEqual({ last: "hello" });
    expect((await h.session()).state.last).toBe("hello");
  });

  it("sends each value a generator node yields as its own event, state after the last on an event of its own", async () => {
    const steps = fn("steps", function* (ctx: NodeContext) {
      yield "one";
      yield "two";
      ctx.state.set("done", true);
    });
    const h = await harness(new Workflow({ name: "w", edges: [["START", steps]] }));
    const events = visible(await h.turn("go"));
    expect(events.map((e) => e.output)).toEqual(["one", "two", undefined]);
    expect(events[2]?.actions.stateDelta).toEqual({ done: true });
  });

  it("refuses a workflow with both edges and a dynamic entry, or neither", () => {
    expect(() => new Workflow({ name: "w" })).toThrow(/either "edges" or "dynamicEntry"/);
    expect(() => new Workflow({ name: "w", edges: [["START", upper]], dynamicEntry: () => 1 })).toThrow(
      /exactly one/,
    );
    expect(() => new Workflow({ name: "w", edges: [["START", upper]], maxConcurrency: 0 })).toThrow(
      /maxConcurrency/,
    );
  });
});
