/**
 * docs/workflows.md: the example, as written there (imports from the source instead of the package), built
 * and run: a message that is no refund goes to `ask`, whose question the user answers, and `done` ends it.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_ROUTE,
  defineApp,
  LlmAgent,
  type NodeContext,
  node,
  RequestInput,
  Workflow,
} from "../../../src/index.js";
import { harness } from "../support/harness.js";
import { answer, interruptOf, lines, send } from "./workflow-helpers.js";

// --- docs/workflows.md example, from here ---
// A function node: its return value is its output; an event's `actions.route` picks the edge it leaves by.
const classify = node(
  (ctx: NodeContext, text: string) =>
    ctx.newEvent({ output: text, actions: { route: /refund/i.test(text) ? "refund" : "other" } }),
  { name: "classify", idempotent: true }, // safe to run again if a crash cuts it off
);
const refunds = new LlmAgent({
  name: "refunds",
  model: "openai:gpt-4.1-mini",
  instruction: "Handle the refund.",
});
const ask = node(() => new RequestInput({ message: "What is it about?" }), { name: "ask" });
const done = node((_ctx: NodeContext, answer: unknown) => `Done: ${String(answer)}`, { name: "done" });

const support = defineApp({
  name: "support",
  rootAgent: new Workflow({
    name: "support",
    edges: [
      ["START", classify, { refund: refunds, [DEFAULT_ROUTE]: ask }],
      [refunds, done],
      [ask, done],
    ],
  }),
});
// --- to here ---

describe("the README's workflow example", () => {
  it("routes, asks the user, and ends with the answer", async () => {
    const h = await harness(support.rootAgent);
    const first = await h.turn("hello there");
    expect(lines(first)).toEqual([
      'classify@support/classify => "hello there" route="other"',
      "ask@support/ask adk_request_input",
      "support@support", // the workflow's own event: it waits on that question
    ]);
    const id = interruptOf(first);
    expect(lines(await send(h.runner, answer(id, { result: "shipping" })))).toEqual([
      'done@support/done Done: shipping => "Done: shipping"',
    ]);
  });
});
