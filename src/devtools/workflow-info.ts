import type { BaseAgent } from "../agents/base-agent.js";
import { LlmAgent } from "../agents/llm-agent.js";
import { AgentNode } from "../workflow/agent-node.js";
import { DEFAULT_ROUTE, type GraphEdge } from "../workflow/graph.js";
import { isWorkflowNode, type WorkflowNode } from "../workflow/node.js";
import { Workflow } from "../workflow/workflow.js";
import type { AgentInfo, GraphEdgeInfo } from "./agent-info.js";

export const START = "__START__";

/** The workflow an agent or node is, if it is one. */
export const asWorkflow = (value: unknown): Workflow | undefined =>
  value instanceof Workflow ? value : undefined;

/** The agent behind a node (an agent node's agent, a workflow itself), if any. */
export const agentOf = (node: WorkflowNode): BaseAgent | undefined =>
  node instanceof AgentNode ? node.agent : node instanceof Workflow ? node : undefined;

/** A workflow with its graph, as adk-devtools serializes it: nodes (START first), then edges with routes. */
export function workflowInfo(workflow: Workflow, agentInfo: (agent: BaseAgent) => AgentInfo): AgentInfo {
  const info: AgentInfo = {
    name: workflow.name,
    type: "workflow",
    ...(workflow.description ? { description: workflow.description } : {}),
    rerun_on_resume: workflow.rerunOnResume,
  };
  const graph = workflow.graph;
  if (!graph) return info;
  const nodes: AgentInfo[] = [{ name: START, type: "start", rerun_on_resume: false }];
  for (const node of graph.nodes) nodes.push(nodeInfo(node, agentInfo));
  return { ...info, graph: { nodes, edges: graph.edges.map(edgeInfo) } };
}

function nodeInfo(node: WorkflowNode, agentInfo: (agent: BaseAgent) => AgentInfo): AgentInfo {
  const agent = agentOf(node);
  if (agent) {
    const info = agentInfo(agent);
    return agent instanceof LlmAgent || node instanceof AgentNode
      ? { ...info, rerun_on_resume: node.rerunOnResume }
      : info;
  }
  return {
    name: node.name,
    type: node.kind === "node" ? "function" : node.kind,
    ...(node.description ? { description: node.description } : {}),
    rerun_on_resume: node.rerunOnResume,
  };
}

const refOf = (node: WorkflowNode | undefined): GraphEdgeInfo["from_node"] =>
  node === undefined ? { name: START, type: "start" } : { name: node.name, type: typeOf(node) };

const typeOf = (node: WorkflowNode): AgentInfo["type"] =>
  isWorkflowNode(node) && node.kind !== "node" ? node.kind : "function";

function edgeInfo(edge: GraphEdge): GraphEdgeInfo {
  const info: GraphEdgeInfo = { from_node: refOf(edge.from), to_node: refOf(edge.to) };
  if (edge.route === null) return info;
  const labels = (Array.isArray(edge.route) ? edge.route : [edge.route]).map((r: unknown) =>
    r === DEFAULT_ROUTE ? "default" : String(r),
  );
  return { ...info, route: labels.length === 1 ? (labels[0] ?? "") : labels };
}
