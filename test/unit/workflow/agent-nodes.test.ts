import { describe, expect, it } from "vitest";
import * as z from "zod";
import { RemoteA2aAgent } from "../../../src/a2a/client/remote-a2a-agent.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { node } from "../../../src/workflow/build-node.js";
import type { NodeContext } from "../../../src/workflow/node-context.js";
import { Workflow } from "../../../src/workflow/workflow.js";
import { a2a, fakePeer, PEER_BASE } from "../support/fake-a2a-peer.js";
import { harness } from "../support/harness.js";
import { promptText, scriptedModel } from "../support/scripted-model.js";
import { lines, send, visible } from "./workflow-helpers.js";

const fn = (name: string, body: (ctx: NodeContext, input: never) => unknown) => node(body, { name });
const prepare = fn("prepare", (_c, text: string) => `Summarise: ${text}`);

describe("agents as workflow nodes (ADK 2.x: an agent is a node)", () => {
  it("gives an LlmAgent the node input as a user turn it alone reads, and takes its reply as the output", async () => {
    const model = scriptedModel([{ text: "A short summary." }]);
    const writer = new LlmAgent({ name: "writer", model, instruction: "Write." });
    const h = await harness(new Workflow({ name: "w", edges: [["START", prepare, writer]] }));
    expect(lines(await h.turn("a long text"))).toEqual([
      'prepare@w/prepare Summarise: a long text => "Summarise: a long text"',
      "user@w/writer Summarise: a long text",
      'writer@w/writer A short summary. => "A short summary."',
    ]);
    const prompt = promptText(model.calls[0] ?? ({ prompt: [] } as never));
    expect(prompt).toContain("Summarise: a long text");
    expect(prompt).not.toContain("a long text\n");
    expect(prompt).not.toContain("For context");
    const reply = visible((await h.session()).events).at(-1);
    expect(reply?.nodeInfo).toEqual({ path: "w/writer", outputFor: ["w/writer"], messageAsOutput: true });
  });

  it("parses the reply of an LlmAgent with an outputSchema as its output", async () => {
    const model = scriptedModel([{ text: '{"score": 4}' }]);
    const rater = new LlmAgent({ name: "rater", model, outputSchema: z.object({ score: z.number() }) });
    const h = await harness(new Workflow({ name: "w", edges: [["START", rater]] }));
    expect(visible(await h.turn("rate this")).at(-1)?.output).toEqual({ score: 4 });
  });

  it("ends a task-mode LlmAgent with finish_task: its arguments are the node's output and its outputKey", async () => {
    const lookup = functionTool({
      name: "lookup",
      description: "Finds a fact.",
      parameters: z.object({ topic: z.string() }),
      execute: ({ topic }) => ({ fact: `${topic} is blue` }),
    });
    const model = scriptedModel([
      { calls: [{ name: "lookup", args: { topic: "sky" } }] },
      { calls: [{ name: "finish_task", args: { result: "The sky is blue." } }] },
      { text: "should never be asked" },
    ]);
    const researcher = new LlmAgent({
      name: "researcher",
      model,
      mode: "task",
      tools: [lookup],
      outputKey: "finding",
    });
    const report = fn("report", (_c, finding: unknown) => `Report: ${JSON.stringify(finding)}`);
    const h = await harness(new Workflow({ name: "w", edges: [["START", researcher, report]] }));
    const events = visible(await h.turn("what colour is the sky?"));
    expect(model.calls).toHaveLength(2);
    const finished = events.find((e) => e.output !== undefined && e.author === "researcher");
    expect(finished?.output).toEqual({ result: "The sky is blue." });
    expect(finished?.actions.stateDelta).toMatchObject({ finding: { result: "The sky is blue." } });
    expect(events.at(-1)?.output).toBe('Report: {"result":"The sky is blue."}');
    const tools = (model.calls[0]?.tools ?? []).map((t) => t.name);
    expect(tools).toEqual(["lookup", "finish_task"]);
    expect(promptText(model.calls[0] ?? ({ prompt: [] } as never))).toContain(
      "Do NOT call `finish_task` prematurely.",
    );
  });

  it("answers a finish_task call missing its result with ADK's error, and the task goes on", async () => {
    const model = scriptedModel([
      { calls: [{ name: "finish_task", args: {} }] },
      { calls: [{ name: "finish_task", args: { result: "done" } }] },
    ]);
    const agent = new LlmAgent({ name: "agent", model, mode: "task" });
    const h = await harness(new Workflow({ name: "w", edges: [["START", agent]] }));
    const events = visible(await h.turn("go"));
    const first = events.find((e) => e.content?.parts?.[0]?.functionResponse)?.content?.parts?.[0]
      ?.functionResponse;
    expect(first?.response.error).toMatch(/missing required parameters: result/);
    expect(events.at(-1)?.output).toEqual({ result: "done" });
  });

  it("calls a tool node with its input as the arguments and takes the response as its output", async () => {
    const add = functionTool({
      name: "add",
      description: "Adds.",
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => ({ sum: a + b }),
    });
    const h = await harness(
      new Workflow({ name: "w", edges: [["START", fn("args", () => ({ a: 2, b: 3 })), add]] }),
    );
    const [, response] = visible(await h.turn("go"));
    expect(response).toMatchObject({ author: "add", output: { sum: 5 }, nodeInfo: { path: "w/add" } });
    expect(response?.content?.parts?.[0]?.functionResponse).toMatchObject({ id: "w/add:1", name: "add" });
  });

  it("keeps each isolation scope's events from the agents of another scope (ADK 2.x isolation_scope)", async () => {
    const models = {
      scout: scriptedModel([{ text: "Scout A found the key under the mat." }]),
      other: scriptedModel([{ text: "Scout B saw nothing." }]),
      reader: scriptedModel([{ text: "Reader read A." }]),
    };
    const agent = (name: keyof typeof models) =>
      new LlmAgent({ name, model: models[name], instruction: "Report.", includeContents: "default" });
    const h = await harness(
      new Workflow({
        name: "w",
        edges: [
          [
            "START",
            node(agent("scout"), { isolationScope: "a" }),
            fn("next", () => "Go on."),
            node(agent("other"), { isolationScope: "b" }),
            fn("last", () => "Read on."),
            node(agent("reader"), { isolationScope: "a" }),
          ],
        ],
      }),
    );
    const events = visible(await h.turn("search the house"));
    const reply = (author: string) => events.find((e) => e.author === author && e.content?.role === "model");
    expect(reply("scout")?.isolationScope).toBe("a");
    expect(reply("other")?.isolationScope).toBe("b");
    expect(events.find((e) => e.author === "user" && e.nodeInfo?.path === "w/other")?.isolationScope).toBe(
      "b",
    );
    const prompt = (name: keyof typeof models) =>
      promptText(models[name].calls[0] ?? ({ prompt: [] } as never));
    // The user's own message has no scope: every agent reads it.
    for (const name of ["scout", "other", "reader"] as const)
      expect(prompt(name)).toContain("search the house");
    expect(prompt("other")).not.toContain("key under the mat");
    expect(prompt("reader")).toContain("key under the mat");
    expect(prompt("reader")).not.toContain("saw nothing");
  });

  it("refuses a long-running tool as a node", () => {
    const wait = functionTool({
      name: "wait",
      description: "",
      parameters: z.object({}),
      execute: () => null,
      isLongRunning: true,
    });
    expect(() => node(wait)).toThrow(/does not take a long-running tool/);
  });
});

describe("a remote A2A agent as a task delegate (the Task API over A2A tasks)", () => {
  const remoteIn = (replies: Parameters<typeof fakePeer>[0]["replies"]) => {
    const peer = fakePeer({ replies });
    const remote = new RemoteA2aAgent({
      name: "remote",
      agentCard: `${PEER_BASE}/.well-known/agent-card.json`,
      fetch: peer.fetch,
    });
    const after = fn("after", (_c, answer: string) => `got: ${answer}`);
    const wf = new Workflow({
      name: "w",
      edges: [["START", prepare, node(remote, { mode: "task" }), after]],
    });
    return { peer, wf };
  };

  it("sends the node input as the task's message and takes the completed task's answer as the output", async () => {
    const { peer, wf } = remoteIn([
      { result: { task: a2a.task("COMPLETED", { artifacts: [a2a.artifact("a", "42")] }) } },
    ]);
    const h = await harness(wf);
    const events = visible(await h.turn("the question"));
    expect(JSON.stringify(peer.calls[0])).toContain("Summarise: the question");
    expect(events.at(-1)?.output).toBe("got: 42");
  });

  it("pauses the workflow while the task needs input, and continues the same task with the user's answer", async () => {
    const { peer, wf } = remoteIn([
      { result: { task: a2a.task("INPUT_REQUIRED", { statusText: "Which account?" }) } },
      { result: { task: a2a.task("COMPLETED", { artifacts: [a2a.artifact("a", "paid")] }) } },
    ]);
    const h = await harness(wf);
    const first = visible(await h.turn("pay the bill"));
    const id = first.findLast((e) => e.longRunningToolIds)?.longRunningToolIds?.[0] ?? "";
    expect(first.some((e) => e.author === "after")).toBe(false);
    const call = first
      .find((e) => e.longRunningToolIds)
      ?.content?.parts?.find((p) => p.functionCall)?.functionCall;
    const reply = {
      role: "user",
      parts: [{ functionResponse: { id, name: call?.name ?? "", response: { result: "savings" } } }],
    };
    const events = visible(await send(h.runner, reply));
    expect(JSON.stringify(peer.calls[1])).toContain('"taskId":"t1"');
    expect(events.at(-1)?.output).toBe("got: paid");
  });

  it("fails the node with the task's error event when the task fails, and stops there", async () => {
    const { wf } = remoteIn([{ result: { task: a2a.task("FAILED", { statusText: "no funds" }) } }]);
    const h = await harness(wf);
    const events = visible(await h.turn("pay"));
    expect(events.at(-1)).toMatchObject({
      author: "remote",
      errorCode: "A2A_TASK_FAILED",
      nodeInfo: { path: "w/remote" },
    });
    expect(events.some((e) => e.author === "after")).toBe(false);
  });
});
