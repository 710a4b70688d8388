import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { createAdkApi } from "../../../src/handlers/api.js";
import { defineApp } from "../../../src/runner/app.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { node } from "../../../src/workflow/build-node.js";
import { DEFAULT_ROUTE, Edge } from "../../../src/workflow/graph.js";
import { JoinNode } from "../../../src/workflow/join-node.js";
import { Workflow } from "../../../src/workflow/workflow.js";
import { testServices } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

/** A workflow root with a routed node, a fan-out and join, a tool node, an agent with a tool, and a nested workflow. */
function api() {
  const services = testServices();
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const lookup = functionTool({
    name: "lookup",
    description: "",
    parameters: z.object({}),
    execute: () => ({}),
  });
  const writer = new LlmAgent({
    name: "writer",
    model: scriptedModel([{ text: "written" }]),
    tools: [lookup],
  });
  const classify = node((ctx) => ctx.newEvent({ output: "long", actions: { route: "long" } }), {
    name: "classify",
  });
  const short = node(() => "s", { name: "short" });
  const a = node(() => "a", { name: "a" });
  const b = node(() => "b", { name: "b" });
  const join = new JoinNode({ name: "join" });
  const inner = new Workflow({ name: "inner", edges: [["START", node(() => "i", { name: "step" })]] });
  const wf = new Workflow({
    name: "pipeline",
    description: "Writes things.",
    edges: [
      ["START", classify],
      new Edge(classify, writer, "long"),
      new Edge(classify, short, DEFAULT_ROUTE),
      [writer, [a, b]],
      [a, join],
      [b, join],
      [join, inner],
    ],
  });
  const app = defineApp({ name: "flows", rootAgent: wf });
  const http = createAdkApi(() => ({ apps: new Map([[app.name, app]]), sessionStore: store, services }));
  const call = (path: string, init: RequestInit = {}) =>
    http.request(path, init, { ALLOW_UNAUTHENTICATED: "true" });
  const json = async (path: string, init: RequestInit = {}) => (await call(path, init)).json();
  return { call, json };
}

describe("the dev UI's graph of a workflow (adk-devtools 2.0's build_graph and build_graph_image)", () => {
  it("serves the workflow with its graph: START, every node with its type, and the edges with their routes", async () => {
    const info = (await api().json("/dev/apps/flows/build_graph")) as {
      root_agent: { type: string; graph: { nodes: { name: string; type: string }[]; edges: unknown[] } };
    };
    expect(info.root_agent).toMatchObject({
      name: "pipeline",
      type: "workflow",
      description: "Writes things.",
      rerun_on_resume: true,
    });
    expect(info.root_agent.graph.nodes.map((n) => [n.name, n.type])).toEqual([
      ["__START__", "start"],
      ["classify", "function"],
      ["writer", "agent"],
      ["short", "function"],
      ["a", "function"],
      ["b", "function"],
      ["join", "join"],
      ["inner", "workflow"],
    ]);
    expect(info.root_agent.graph.nodes[2]).toMatchObject({
      model: "scripted:scripted",
      tools: [{ name: "lookup", type: "tool" }],
    });
    expect(info.root_agent.graph.edges).toContainEqual({
      from_node: { name: "classify", type: "function" },
      to_node: { name: "short", type: "function" },
      route: "default",
    });
    expect(info.root_agent.graph.edges).toContainEqual({
      from_node: { name: "__START__", type: "start" },
      to_node: { name: "classify", type: "function" },
    });
  });

  it('draws each workflow level as DOT keyed as the dev UI reads event paths: the root at "", nested ones under <root>/<path>', async () => {
    const body = (await api().json("/dev/apps/flows/build_graph_image?dark_mode=false")) as Record<
      string,
      unknown
    >;
    expect(Object.keys(body).sort()).toEqual(["", "dotSrc", "pipeline/inner"]);
    const dot = String(body.dotSrc);
    expect(body[""]).toEqual({ dotSrc: dot });
    expect(dot).toMatch(/"__START__" \[label="START", shape=oval/);
    expect(dot).toMatch(/"classify" \[label=<.*classify>, tooltip="Function", shape=diamond/);
    expect(dot).toContain('"classify" -> "writer" [label="  long"];');
    expect(dot).toContain('"classify" -> "short" [label="  default"];');
    expect(dot).toMatch(/"join" \[.*shape=oval/);
    expect(dot).toContain('"writer" -> "lookup" [style="dashed"');
    expect(dot).toContain('"inner" -> "__END__";');
    expect(String((body["pipeline/inner"] as { dotSrc: string }).dotSrc)).toContain('"__START__" -> "step";');
  });

  it("draws a nested level for ?node= and answers 404 for a node that does not exist", async () => {
    const { call, json } = api();
    const body = (await json("/dev/apps/flows/build_graph_image?node=pipeline/inner")) as Record<
      string,
      unknown
    >;
    expect(String(body.dotSrc)).toMatch(/^digraph "inner"/);
    expect((await call("/dev/apps/flows/build_graph_image?node=pipeline/nowhere")).status).toBe(404);
  });

  it("lights a node's event in its workflow's graph, and the edge from the node before it", async () => {
    const { call, json } = api();
    await call("/apps/flows/users/u/sessions", { method: "POST", body: JSON.stringify({ sessionId: "g" }) });
    const events = (await json("/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        appName: "flows",
        userId: "u",
        sessionId: "g",
        newMessage: { role: "user", parts: [{ text: "go" }] },
      }),
    })) as Event[];
    const written = events.find((e) => e.author === "writer" && e.output !== undefined);
    const { dotSrc } = (await json(`/dev/apps/flows/users/u/sessions/g/events/${written?.id}/graph`)) as {
      dotSrc: string;
    };
    expect(dotSrc).toMatch(/"writer" \[.*fillcolor="#0F5223"/);
    expect(dotSrc).toMatch(/"classify" -> "writer" \[label=" {2}long", color="#69CB87"/);
    expect(dotSrc).not.toMatch(/"short" \[.*#0F5223/);
  });
});
