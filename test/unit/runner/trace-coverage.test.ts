import { describe, expect, it } from "vitest";
import { AgentTool } from "../../../src/agents/agent-tool.js";
import type { BaseAgent } from "../../../src/agents/base-agent.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { LoopAgent } from "../../../src/agents/loop-agent.js";
import { ParallelAgent } from "../../../src/agents/parallel-agent.js";
import { SequentialAgent } from "../../../src/agents/sequential-agent.js";
import type { TraceSpan, TurnTrace } from "../../../src/core/trace.js";
import { RuntimeAgent } from "../../../src/runtimes/runtime-agent.js";
import { RUNTIME_KITS } from "../runtimes/runtime-kits.js";
import { a2a } from "../support/fake-a2a-peer.js";
import { harness } from "../support/harness.js";
import { remoteTree } from "../support/remote-tree.js";
import { scriptedModel } from "../support/scripted-model.js";

const says = (name: string, text: string) => new LlmAgent({ name, model: scriptedModel([{ text }]) });

/** The one stored trace of a harness's single turn, and its spans by name. */
async function traceOf(h: Awaited<ReturnType<typeof harness>>) {
  const traces = (await h.traces()) satisfies TurnTrace[];
  expect(traces).toHaveLength(1);
  const spans = traces[0]?.spans ?? [];
  const named = (name: string): TraceSpan[] => spans.filter((s) => s.name === name);
  const one = (name: string): TraceSpan => {
    const [span, ...more] = named(name);
    if (span === undefined || more.length > 0) throw new Error(`expected one span "${name}"`);
    return span;
  };
  return { spans, named, one };
}

async function tracedRun(root: BaseAgent) {
  const h = await harness(root);
  const events = await h.turn("go");
  return { events, ...(await traceOf(h)) };
}

describe("traces cover every agent kind", () => {
  it("nests a SequentialAgent's sub-agents under its span, each with its model call", async () => {
    const { one, named } = await tracedRun(
      new SequentialAgent({ name: "steps", subAgents: [says("first", "1"), says("second", "2")] }),
    );
    const steps = one("invoke_agent steps");
    expect(steps.parentSpanId).toBe(one("invocation").spanId);
    const agents = ["first", "second"].map((name) => one(`invoke_agent ${name}`));
    for (const agent of agents) expect(agent.parentSpanId).toBe(steps.spanId);
    expect(named("call_llm").map((s) => s.parentSpanId)).toEqual(agents.map((a) => a.spanId));
  });

  it("records each branch of a ParallelAgent and each round of a LoopAgent as agent spans under it", async () => {
    const parallel = await tracedRun(
      new ParallelAgent({ name: "fan", subAgents: [says("left", "L"), says("right", "R")] }),
    );
    const fan = parallel.one("invoke_agent fan");
    expect(parallel.one("invoke_agent left").parentSpanId).toBe(fan.spanId);
    expect(parallel.one("invoke_agent right").parentSpanId).toBe(fan.spanId);
    expect(parallel.named("call_llm")).toHaveLength(2);

    const loop = await tracedRun(
      new LoopAgent({ name: "again", maxIterations: 3, subAgents: [says("once", "o")] }),
    );
    const rounds = loop.named("invoke_agent once");
    expect(rounds).toHaveLength(3);
    for (const round of rounds) expect(round.parentSpanId).toBe(loop.one("invoke_agent again").spanId);
  });

  it("nests the agent an AgentTool runs under the tool's span, in the caller's trace", async () => {
    const helper = says("helper", "summary");
    const caller = new LlmAgent({
      name: "caller",
      model: scriptedModel([{ calls: [{ name: "helper", args: { request: "sum up" } }] }, { text: "done" }]),
      tools: [new AgentTool({ agent: helper })],
    });
    const { one, named, events } = await tracedRun(caller);
    const tool = one("execute_tool helper");
    expect(tool.parentSpanId).toBe(one("invoke_agent caller").spanId);
    expect(one("invoke_agent helper").parentSpanId).toBe(tool.spanId);
    expect(
      named("call_llm").filter((s) => s.parentSpanId === one("invoke_agent helper").spanId),
    ).toHaveLength(1);
    expect(JSON.parse(String(tool.attributes["gcp.vertex.agent.tool_response"]))).toEqual({
      result: "summary",
    });
    const response = events.find((e) => e.content?.parts?.some((p) => p.functionResponse));
    expect(tool.attributes["gcp.vertex.agent.event_id"]).toBe(response?.id);
  });

  it("records a remote A2A agent's call: where it went, the task and its state", async () => {
    const h = await remoteTree({
      replies: [{ result: { task: a2a.task("COMPLETED", { artifacts: [a2a.artifact("A", "ok")] }) } }],
    });
    await h.turn("go");
    const { one } = await traceOf(h);
    const call = one("send_message remote");
    expect(call.parentSpanId).toBe(one("invoke_agent remote").spanId);
    expect(call.attributes).toMatchObject({
      "baton.a2a.task_id": "t1",
      "baton.a2a.task_state": "TASK_STATE_COMPLETED",
      "baton.a2a.streaming": false,
    });
    expect(String(call.attributes["baton.a2a.url"])).toMatch(/^http/);
    expect(call.error).toBeUndefined();
  });

  it("marks a remote call that failed as an error span", async () => {
    const h = await remoteTree({ replies: [{ status: 500, body: "down" }] });
    await h.turn("go");
    const { one } = await traceOf(h);
    expect(one("send_message remote").error).toMatch(/500|failed/i);
  });
});

describe.each(RUNTIME_KITS)("$name: a runtime agent's trace", (kit) => {
  it("records one model span per step of the foreign loop and one span per tool call, under the agent", async () => {
    const rt = kit.scripted([
      { calls: [{ name: "transfer_to_agent", args: { agent_name: "desk" }, id: "c1" }] },
    ]);
    const desk = says("desk", "at your service");
    const root = new RuntimeAgent({ name: "front", runtime: rt.runtime, subAgents: [desk] });
    const { one, named, events } = await tracedRun(root);
    const front = one("invoke_agent front");
    const [step] = named("call_llm").filter((s) => s.parentSpanId === front.spanId);
    expect(step?.attributes["gen_ai.system"]).toBe(rt.runtime.kind);
    expect(step?.attributes["gcp.vertex.agent.event_id"]).toBe(events.find((e) => e.author === "front")?.id);
    const transfer = one("execute_tool transfer_to_agent");
    expect(transfer.parentSpanId).toBe(front.spanId);
    expect(transfer.attributes["baton.transfer.to"]).toBe("desk");
    expect(one("invoke_agent desk").parentSpanId).toBe(front.spanId);
  });
});
