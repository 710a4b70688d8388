import { BaseAgent } from "../agents/base-agent.js";
import { LlmAgent } from "../agents/llm-agent.js";
import { DEFAULT_ROUTE, START_NAME } from "./constants.js";
import type { Graph, GraphEdge } from "./graph.js";
import type { WorkflowNode } from "./node.js";

/** One agent or node as ADK's dev UI reads it (`build_graph`, snake_case like adk-devtools' `serializeAgent`). */
export interface GraphNodeInfo {
  name: string;
  type: "agent" | "workflow" | "function" | "tool" | "join" | "start" | "node";
  description?: string;
  model?: string;
  tools?: { name: string; type: "tool" }[];
  rerun_on_resume?: boolean;
  graph?: { nodes: GraphNodeInfo[]; edges: GraphEdgeInfo[] };
  sub_agents?: GraphNodeInfo[];
}

/** An edge of a workflow's graph in `build_graph`; `route` is `"default"` for the default route. */
export interface GraphEdgeInfo {
  from_node: { name: string; type: GraphNodeInfo["type"] };
  to_node: { name: string; type: GraphNodeInfo["type"] };
  route?: string | string[];
}

/** The agent behind a node (an agent node's agent, a nested workflow itself), if any. */
export function agentOf(node: WorkflowNode): BaseAgent | undefined {
  if (node instanceof BaseAgent) return node;
  const wrapped = "agent" in node ? node.agent : undefined;
  return node.kind === "agent" && wrapped instanceof BaseAgent ? wrapped : undefined;
}

/** A workflow's description with its graph: START first, each node (an agent as `describe` gives it), the edges. */
export function graphInfo(
  workflow: { name: string; description: string; rerunOnResume: boolean; graph: Graph | undefined },
  describe: (agent: BaseAgent) => GraphNodeInfo,
): GraphNodeInfo {
  const info: GraphNodeInfo = {
    name: workflow.name,
    type: "workflow",
    ...(workflow.description ? { description: workflow.description } : {}),
    rerun_on_resume: workflow.rerunOnResume,
  };
  const graph = workflow.graph;
  if (!graph) return info;
  const nodes: GraphNodeInfo[] = [{ name: START_NAME, type: "start", rerun_on_resume: false }];
  for (const node of graph.nodes) nodes.push(nodeInfo(node, describe));
  return { ...info, graph: { nodes, edges: graph.edges.map(edgeInfo) } };
}

function nodeInfo(node: WorkflowNode, describe: (agent: BaseAgent) => GraphNodeInfo): GraphNodeInfo {
  const agent = agentOf(node);
  if (agent) {
    const info = describe(agent);
    const rerun = agent instanceof LlmAgent || node.kind === "agent";
    return rerun ? { ...info, rerun_on_resume: node.rerunOnResume } : info;
  }
  return {
    name: node.name,
    type: typeOf(node),
    ...(node.description ? { description: node.description } : {}),
    rerun_on_resume: node.rerunOnResume,
  };
}

const typeOf = (node: WorkflowNode): GraphNodeInfo["type"] => (node.kind === "node" ? "function" : node.kind);

const refOf = (node: WorkflowNode | undefined): GraphEdgeInfo["from_node"] =>
  node === undefined ? { name: START_NAME, type: "start" } : { name: node.name, type: typeOf(node) };

function edgeInfo(edge: GraphEdge): GraphEdgeInfo {
  const info: GraphEdgeInfo = { from_node: refOf(edge.from), to_node: refOf(edge.to) };
  if (edge.route === null) return info;
  const routes: readonly unknown[] = Array.isArray(edge.route) ? edge.route : [edge.route];
  const labels = routes.map((r) => (r === DEFAULT_ROUTE ? "default" : String(r)));
  return { ...info, route: labels.length === 1 ? (labels[0] ?? "") : labels };
}
