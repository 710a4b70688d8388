import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { AgentConfigRegistry } from "../../../src/config/agent-config-registry.js";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
import type { NodeContext } from "../../../src/workflow/node-context.js";
import { Workflow } from "../../../src/workflow/workflow.js";
import { harness } from "../support/harness.js";
import { lines } from "../workflow/workflow-helpers.js";

const shout = functionTool({
  name: "shout",
  description: "Shouts.",
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => ({ loud: text.toUpperCase() }),
});
const registry: AgentConfigRegistry = {
  nodes: {
    "orders.nodes.classify": (ctx: NodeContext, text: string) =>
      ctx.newEvent({ output: text, actions: { route: text.startsWith("refund") ? "refund" : "other" } }),
    "orders.nodes.refund": (_ctx: NodeContext, text: string) => `refunding: ${text}`,
    "orders.nodes.as_args": (_ctx: NodeContext, text: string) => ({ text }),
    "orders.nodes.tag": (_ctx: NodeContext, input: unknown) => `tagged ${JSON.stringify(input)}`,
  },
  tools: { "orders.tools.shout": shout },
};

const ROOT = `
agent_class: Workflow
name: orders
description: Routes orders.
edges:
  - [START, orders.nodes.classify, {refund: orders.nodes.refund, default: other.yaml}]
  - - other.yaml
    - orders.nodes.as_args
    - orders.tools.shout
`;
const OTHER = `
agent_class: google.adk.workflow.Workflow
name: other
edges:
  - from_node: START
    to_node: tag.yaml
`;
const TAG = `
agent_class: FunctionNode
name: tag_it
func_code: orders.nodes.tag
retry_config: {max_attempts: 2}
`;

const files = { "root_agent.yaml": ROOT, "other.yaml": OTHER, "tag.yaml": TAG };
const failure = (fs: Record<string, string>) => {
  try {
    loadAgentConfig({ files: fs, registry });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("loaded");
};

describe("ADK 2.x workflows in Agent Config YAML", () => {
  it("builds a Workflow from chains, routing maps (default too), explicit edges and node files", async () => {
    const root = loadAgentConfig({ files, registry });
    expect(root).toBeInstanceOf(Workflow);
    const h = await harness(root);
    expect(lines(await h.turn("refund order 7"))).toEqual([
      'classify@orders/classify => "refund order 7" route="refund"',
      'refund@orders/refund refunding: refund order 7 => "refunding: refund order 7"',
    ]);
    expect(lines(await h.turn("where is it"))).toEqual([
      'classify@orders/classify => "where is it" route="other"',
      'tag_it@orders/other/tag_it tagged "where is it" => "tagged \\"where is it\\""',
      'as_args@orders/as_args tagged "where is it" => {"text":"tagged \\"where is it\\""}',
      'shout@orders/shout shout => {"loud":"TAGGED \\"WHERE IS IT\\""}',
    ]);
  });

  it("names an unknown node reference with what the registry holds", () => {
    expect(
      failure({ "root_agent.yaml": "agent_class: Workflow\nname: w\nedges: [[START, nodes.missing]]\n" }),
    ).toMatch(
      /root_agent.yaml: edges\[0\]\[1\]: unknown node "nodes.missing": not a config file, and not in registry.nodes or registry.tools \(registered: orders.nodes.classify/,
    );
  });

  it("refuses a node file as the root, a node file as a sub-agent, and a FunctionNode whose function is not registered", () => {
    expect(failure({ "root_agent.yaml": TAG })).toMatch(
      /a FunctionNode is a workflow's node, not a root agent/,
    );
    expect(
      failure({ "root_agent.yaml": "name: a\nsub_agents: [{config_path: tag.yaml}]\n", "tag.yaml": TAG }),
    ).toMatch(/sub_agents\[0\].config_path: "tag.yaml" is a workflow node, not an agent/);
    expect(
      failure({
        "root_agent.yaml": "agent_class: Workflow\nname: w\nedges: [[START, f.yaml]]\n",
        "f.yaml": "agent_class: FunctionNode\nname: f\nfunc_code: nope\n",
      }),
    ).toMatch(/f.yaml: func_code: no function "nope" in registry.nodes/);
  });

  it("refuses a workflow without edges and an unknown workflow field, naming the accepted ones", () => {
    expect(failure({ "root_agent.yaml": "agent_class: Workflow\nname: w\nedges: []\n" })).toMatch(/edges/);
    expect(
      failure({
        "root_agent.yaml":
          "agent_class: Workflow\nname: w\nedges: [[START, orders.nodes.refund]]\nnodes: []\n",
      }),
    ).toMatch(/unknown field "nodes"; accepted: agent_class, name, description, edges, max_concurrency/);
  });

  it("reads an LlmAgent's ADK 2.x mode", () => {
    const root = loadAgentConfig({
      files: { "root_agent.yaml": 'name: worker\nmode: task\nmodel: "demo:"\n' },
    });
    expect(root instanceof LlmAgent && root.finishTaskTool?.name).toBe("finish_task");
  });
});
