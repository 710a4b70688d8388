import { describe, expect, it } from "vitest";
import { node } from "../../../src/workflow/build-node.js";
import type { NodeContext } from "../../../src/workflow/node-context.js";
import { RequestInput } from "../../../src/workflow/request-input.js";
import { Workflow } from "../../../src/workflow/workflow.js";
import { harness } from "../support/harness.js";
import { answer, interruptOf, lines, send, visible } from "./workflow-helpers.js";

const fn = (name: string, body: (ctx: NodeContext, input: never) => unknown) => node(body, { name });

function approval() {
  let prepared = 0;
  const prepare = fn("prepare", (_c, order: string) => {
    prepared++;
    return `draft for ${order}`;
  });
  const ask = fn(
    "ask",
    (_c, draft: string) => new RequestInput({ message: `Approve ${draft}?`, payload: { draft } }),
  );
  const ship = fn("ship", (_c, decision: unknown) => `shipped: ${JSON.stringify(decision)}`);
  return {
    wf: new Workflow({ name: "approval", edges: [["START", prepare, ask, ship]] }),
    prepared: () => prepared,
  };
}

describe("interrupts: a node asks the user and the workflow resumes with the answer (ADK 2.x RequestInput)", () => {
  it("pauses on an adk_request_input call marked long-running, with the question and payload as its args", async () => {
    const { wf } = approval();
    const h = await harness(wf);
    const events = visible(await h.turn("order-7"));
    const call = events.find((e) => e.author === "ask")?.content?.parts?.[0]?.functionCall;
    expect(call?.name).toBe("adk_request_input");
    expect(call?.args).toMatchObject({
      message: "Approve draft for order-7?",
      payload: { draft: "draft for order-7" },
    });
    expect(events.find((e) => e.author === "ask")?.longRunningToolIds).toEqual([call?.id]);
    expect(events.some((e) => e.author === "ship")).toBe(false);
  });

  it("resumes in the next turn with the function response as the node's output, without running earlier nodes again", async () => {
    const { wf, prepared } = approval();
    const h = await harness(wf);
    const id = interruptOf(await h.turn("order-7"));
    const events = await send(h.runner, answer(id, { result: "yes" }));
    expect(lines(events)).toEqual(['ship@approval/ship shipped: "yes" => "shipped: \\"yes\\""']);
    expect(prepared()).toBe(1);
  });

  it("takes a structured answer as the output as it is", async () => {
    const h = await harness(approval().wf);
    const id = interruptOf(await h.turn("order-8"));
    const events = visible(await send(h.runner, answer(id, { approved: true, note: "ok" })));
    expect(events.at(-1)?.output).toBe('shipped: {"approved":true,"note":"ok"}');
  });

  it("takes a plain-text reply as the answer when one question is open", async () => {
    const h = await harness(approval().wf);
    await h.turn("order-9");
    const events = visible(await h.turn("sure"));
    expect(events.at(-1)?.output).toBe('shipped: "sure"');
  });

  it("refuses an answer to an interrupt the run never raised, and the question stays open", async () => {
    const h = await harness(approval().wf);
    const id = interruptOf(await h.turn("order-1"));
    const refused = await send(h.runner, answer("not-an-id", { result: "yes" }));
    expect(refused.at(-1)?.errorCode).toBe("NODE_ERROR");
    expect(refused.at(-1)?.errorMessage).toMatch(/matches no interrupt this run raised. Still waiting: '/);
    const events = visible(await send(h.runner, answer(id, { result: "yes" })));
    expect(events.at(-1)?.output).toBe('shipped: "yes"');
  });

  it("refuses a second answer to an interrupt already answered while the run asks again", async () => {
    const ask = fn(
      "ask",
      (_c, round: unknown) => new RequestInput({ message: `Round ${JSON.stringify(round)}?` }),
    );
    const check = fn("check", (ctx, reply: unknown) =>
      ctx.newEvent({ output: reply, actions: { route: reply === "again" ? "again" : "done" } }),
    );
    const done = fn("done", (_c, reply: unknown) => `done: ${String(reply)}`);
    const h = await harness(
      new Workflow({ name: "rounds", edges: [["START", ask, check, { again: ask, done }]] }),
    );
    const first = interruptOf(await h.turn("go"));
    const second = interruptOf(await send(h.runner, answer(first, { result: "again" })));
    expect(second).not.toBe(first);
    const refused = await send(h.runner, answer(first, { result: "stop" }));
    expect(refused.at(-1)?.errorMessage).toMatch(/has already been answered, so this reply resolves nothing/);
    const events = visible(await send(h.runner, answer(second, { result: "stop" })));
    expect(events.at(-1)?.output).toBe("done: stop");
  });

  it("routes the answer to a workflow that is a sub-agent, not to the agent above it", async () => {
    const { SequentialAgent } = await import("../../../src/agents/sequential-agent.js");
    const { wf } = approval();
    const root = new SequentialAgent({ name: "root", subAgents: [wf] });
    const h = await harness(root);
    const id = interruptOf(await h.turn("order-3"));
    const events = visible(await send(h.runner, answer(id, { result: "ok" })));
    expect(events.at(-1)?.output).toBe('shipped: "ok"');
  });
});
