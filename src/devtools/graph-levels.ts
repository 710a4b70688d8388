import type { BaseAgent } from "../agents/base-agent.js";
import { BatonError } from "../core/errors.js";
import { agentGraphDot } from "./agent-graph.js";
import { agentInfo } from "./agent-info.js";
import { asWorkflow } from "./workflow-shape.js";

/** An agent's or a workflow's children, as the dev UI navigates them: graph nodes, else sub-agents. */
function childrenOf(target: BaseAgent): { name: string; agent: BaseAgent | undefined }[] {
  const workflow = asWorkflow(target);
  if (workflow?.graph) return workflow.graphChildren();
  return target.subAgents.map((sub) => ({ name: sub.name, agent: sub }));
}

/** The agent at `path` (`root/child/…`, the root's name optional), or a 404 naming the path. */
export function agentAt(root: BaseAgent, path: string): BaseAgent {
  const names = path.split("/").filter((part) => part !== "");
  if (names[0] === root.name) names.shift();
  let target = root;
  for (const name of names) {
    const next = childrenOf(target).find((child) => child.name === name)?.agent;
    if (!next) throw new BatonError("not_found", `Node not found: ${path}`);
    target = next;
  }
  return target;
}

/**
 * `/dev/apps/:app/build_graph_image`: the level at `path` as DOT (`dotSrc`, and under its path), plus each
 * workflow below it under `<root>/<path of the workflow>`, which is how the dev UI finds the graph of an
 * event's node path (`<root>/<workflow>/…/<node>`). A workflow level is drawn as its graph, an agent as
 * its tree.
 */
export function graphLevels(
  root: BaseAgent,
  path: string,
  darkMode: boolean,
): Record<string, { dotSrc: string }> {
  const target = agentAt(root, path);
  const levels: Record<string, { dotSrc: string }> = {};
  const draw = (agent: BaseAgent) => {
    const workflow = asWorkflow(agent);
    return workflow ? workflow.graphDot(agentInfo, { darkMode }) : agentGraphDot(agent, { darkMode });
  };
  const prefix = path === "" ? root.name : path;
  const visit = (agent: BaseAgent, at: string): void => {
    for (const child of childrenOf(agent)) {
      if (!child.agent) continue;
      const childPath = `${at}/${child.name}`;
      if (asWorkflow(child.agent)?.graph) levels[childPath] = { dotSrc: draw(child.agent) };
      visit(child.agent, childPath);
    }
  };
  visit(target, prefix);
  levels[path] = { dotSrc: draw(target) };
  return levels;
}
