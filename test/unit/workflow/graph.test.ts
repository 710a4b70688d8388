import { describe, expect, it } from "vitest";
import { FunctionNode } from "../../../src/workflow/function-node.js";
import { DEFAULT_ROUTE, Edge, graphOf } from "../../../src/workflow/graph.js";
import { JoinNode } from "../../../src/workflow/join-node.js";

const fn = (name: string) => new FunctionNode(name, () => name);
const names = (nodes: readonly { name: string }[]) => nodes.map((n) => n.name);

describe("graphOf: edges from chains, routing maps and Edge objects (ADK 2.x graph)", () => {
  it("links a chain left to right and finds its terminal node", () => {
    const [a, b, c] = [fn("a"), fn("b"), fn("c")];
    const graph = graphOf([["START", a, b, c]]);
    expect(names(graph.starts)).toEqual(["a"]);
    expect(names(graph.next("a", undefined))).toEqual(["b"]);
    expect([...graph.terminalNames]).toEqual(["c"]);
  });

  it("fans out to every node of a list, and joins them with explicit edges", () => {
    const [a, b, join, end] = [fn("a"), fn("b"), new JoinNode({ name: "join" }), fn("end")];
    const graph = graphOf([
      ["START", [a, b]],
      [a, join],
      [b, join],
      [join, end],
    ]);
    expect(names(graph.starts)).toEqual(["a", "b"]);
    expect(graph.predecessorsOf("join")).toEqual(["a", "b"]);
  });

  it("routes by the route a node emits, compared by its string form", () => {
    const [r, one, two, yes] = [fn("r"), fn("one"), fn("two"), fn("yes")];
    const graph = graphOf([["START", r, { 1: one, two, true: yes }]]);
    expect(names(graph.next("r", 1))).toEqual(["one"]);
    expect(names(graph.next("r", "1"))).toEqual(["one"]);
    expect(names(graph.next("r", true))).toEqual(["yes"]);
    expect(names(graph.next("r", ["two", 1]))).toEqual(["one", "two"]);
    expect(names(graph.next("r", "none"))).toEqual([]);
  });

  it("takes the DEFAULT_ROUTE edge only when no other route matched", () => {
    const [r, hit, other] = [fn("r"), fn("hit"), fn("other")];
    const graph = graphOf([["START", r], new Edge(r, hit, "hit"), new Edge(r, other, DEFAULT_ROUTE)]);
    expect(names(graph.next("r", "hit"))).toEqual(["hit"]);
    expect(names(graph.next("r", "miss"))).toEqual(["other"]);
    expect(names(graph.next("r", undefined))).toEqual(["other"]);
  });

  it("makes one node of a function that appears in several edges", () => {
    const shared = Object.defineProperty(() => 1, "name", { value: "shared" });
    const graph = graphOf([
      ["START", shared, fn("x")],
      [shared, fn("y")],
    ]);
    expect(names(graph.nodes)).toEqual(["shared", "x", "y"]);
    expect(names(graph.next("shared", undefined))).toEqual(["x", "y"]);
  });

  it.each<[string, () => unknown, RegExp]>([
    [
      "two nodes with one name",
      () => graphOf([["START", fn("a"), fn("a")]]),
      /Duplicate node names found: \["a"\]/,
    ],
    [
      "a node START cannot reach",
      () =>
        graphOf([
          ["START", fn("a")],
          [fn("b"), fn("c")],
        ]),
      /unreachable from START: \["b","c"\]/,
    ],
    [
      "a routed edge from START",
      () => graphOf([new Edge("START", fn("a"), "x")]),
      /Edges from START must not have routes/,
    ],
    ["START as a target", () => graphOf([["START", fn("a"), "START"]]), /START must not have incoming edges/],
    ["no edge from START", () => graphOf([[fn("a"), fn("b")]]), /No edge starts at START/],
    [
      "a cycle of unconditional edges",
      () => {
        const [a, b] = [fn("a"), fn("b")];
        return graphOf([["START", a, b, a]]);
      },
      /Unconditional cycle detected: a -> b -> a/,
    ],
    [
      "the same edge twice",
      () => {
        const a = fn("a");
        return graphOf([
          ["START", a],
          ["START", a],
        ]);
      },
      /Duplicate edge found: from=START, to=a/,
    ],
    [
      "two DEFAULT_ROUTE edges from one node",
      () => {
        const r = fn("r");
        return graphOf([
          ["START", r],
          new Edge(r, fn("x"), DEFAULT_ROUTE),
          new Edge(r, fn("y"), DEFAULT_ROUTE),
        ]);
      },
      /Multiple DEFAULT_ROUTE edges found from node r/,
    ],
    [
      "DEFAULT_ROUTE in a list of routes",
      () => {
        const r = fn("r");
        return graphOf([["START", r], new Edge(r, fn("x"), ["a", DEFAULT_ROUTE])]);
      },
      /DEFAULT_ROUTE cannot be combined/,
    ],
    [
      "two routing maps in a row",
      () => graphOf([["START", fn("r"), { a: fn("a") }, { b: fn("b") }]]),
      /Two routing maps in a row/,
    ],
    ["an empty routing map", () => graphOf([["START", fn("r"), {}]]), /must not be empty/],
  ])("refuses %s when the workflow is built", (_case, build, message) => {
    expect(build).toThrow(message);
  });

  it("allows a cycle with a routed edge (a loop with an exit)", () => {
    const [draft, check, done] = [fn("draft"), fn("check"), fn("done")];
    const graph = graphOf([["START", draft, check, { retry: draft, ok: done }]]);
    expect(names(graph.next("check", "retry"))).toEqual(["draft"]);
  });
});
