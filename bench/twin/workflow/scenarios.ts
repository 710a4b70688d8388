/**
 * The workflow twin's scenarios, written once and built on both sides (ADK TS 2.0 in `adk-workflows.ts`,
 * Baton in `baton-workflows.ts`): the same graphs, the same function bodies, the same scripted model replies,
 * the same turns. A function node's body is a pure step over its input and the session state; each side
 * turns its result into its own API (an output, a route, a state write, a question to the user).
 */

/** What a function node does with its input: its output, a route, state writes, or a question. */
export interface StepResult {
  output?: unknown;
  route?: string;
  set?: Record<string, unknown>;
  ask?: string;
}

/** One scripted model reply: text, or a function call. */
export type Reply = { text: string } | { call: { name: string; args: Record<string, unknown> } };

export type NodeSpec =
  | { kind: "fn"; name: string; step: (input: unknown, state: (key: string) => unknown) => StepResult }
  | {
      kind: "llm";
      name: string;
      replies: readonly Reply[];
      mode?: "task";
      tools?: readonly string[];
      outputKey?: string;
    }
  | { kind: "join"; name: string }
  | { kind: "workflow"; name: string; edges: readonly Chain[] };

/** A chain of node names (`"START"` first), a fan-out list, or a routing map `{route: name}`. */
export type Chain = readonly (string | readonly string[] | Readonly<Record<string, string>>)[];

/** A turn: a text message, or the answer to the question the workflow waits on. */
export type Turn = { text: string } | { answer: unknown };

export interface Scenario {
  name: string;
  /** The root workflow's name and edges; `nodes` are the nodes the edges name. */
  root: string;
  edges: readonly Chain[];
  nodes: readonly NodeSpec[];
  turns: readonly Turn[];
  /** The tools the scenario's agents may use, by name: what each returns for its arguments. */
  tools?: Readonly<Record<string, (args: Record<string, unknown>) => Record<string, unknown>>>;
}

const fn = (
  name: string,
  step: (input: unknown, state: (key: string) => unknown) => StepResult,
): NodeSpec => ({
  kind: "fn",
  name,
  step,
});
const text = (t: string): Reply => ({ text: t });
const str = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "routing",
    root: "triage",
    edges: [["START", "classify", { question: "answer", statement: "note" }]],
    nodes: [
      fn("classify", (input) => {
        const kind = str(input).includes("?") ? "question" : "statement";
        return { output: kind, route: kind };
      }),
      { kind: "llm", name: "answer", replies: [text("It is 42."), text("Still 42.")] },
      fn("note", (input) => ({ output: `noted ${str(input)}` })),
    ],
    turns: [{ text: "what is it?" }, { text: "hello there" }, { text: "and now?" }],
  },
  {
    name: "fan-out + join",
    root: "debate",
    edges: [
      ["START", ["pro", "con"]],
      ["pro", "join"],
      ["con", "join"],
      ["join", "verdict"],
    ],
    nodes: [
      { kind: "llm", name: "pro", replies: [text("Yes: it is cheap.")] },
      { kind: "llm", name: "con", replies: [text("No: it is slow.")] },
      { kind: "join", name: "join" },
      fn("verdict", (input) => ({ output: `weighed ${str(input)}` })),
    ],
    turns: [{ text: "should we?" }],
  },
  {
    name: "loop with an exit",
    root: "editor",
    edges: [["START", "draft", "review", { again: "draft", done: "publish" }]],
    nodes: [
      { kind: "llm", name: "draft", replies: [text("draft one"), text("draft two"), text("draft three")] },
      fn("review", (input, state) => {
        const rounds = Number(state("rounds") ?? 0) + 1;
        return { output: input, route: rounds >= 3 ? "done" : "again", set: { rounds } };
      }),
      fn("publish", (input, state) => ({
        output: `published ${str(input)} after ${str(state("rounds"))} rounds`,
      })),
    ],
    turns: [{ text: "write a haiku" }],
  },
  {
    name: "interrupt + resume",
    root: "approval",
    edges: [["START", "prepare", "ask", "ship"]],
    nodes: [
      fn("prepare", (input) => ({ output: `draft for ${str(input)}` })),
      fn("ask", (input) => ({ ask: `Approve ${str(input)}?` })),
      fn("ship", (input) => ({ output: `shipped: ${str(input)}` })),
    ],
    turns: [{ text: "order-7" }, { answer: "yes" }, { text: "order-8" }, { answer: { approved: false } }],
  },
  {
    name: "nested workflow",
    root: "outer",
    edges: [["START", "pre", "inner", "post"]],
    nodes: [
      fn("pre", (input) => ({ output: `  ${str(input)}  ` })),
      { kind: "workflow", name: "inner", edges: [["START", "trim", "shout"]] },
      fn("trim", (input) => ({ output: str(input).trim() })),
      { kind: "llm", name: "shout", replies: [text("LOUD REPLY")] },
      fn("post", (input) => ({ output: `post(${str(input)})` })),
    ],
    turns: [{ text: "quiet words" }],
  },
  {
    name: "task delegation",
    root: "research",
    edges: [["START", "plan", "researcher", "report"]],
    nodes: [
      fn("plan", (input) => ({ output: `Research: ${str(input)}` })),
      {
        kind: "llm",
        name: "researcher",
        mode: "task",
        tools: ["lookup"],
        outputKey: "finding",
        replies: [
          { call: { name: "lookup", args: { topic: "sky" } } },
          { call: { name: "finish_task", args: { result: "The sky is blue." } } },
        ],
      },
      fn("report", (input) => ({ output: `Report: ${str(input)}` })),
    ],
    tools: { lookup: (args) => ({ fact: `${str(args.topic)} is blue` }) },
    turns: [{ text: "what colour is the sky?" }],
  },
];
