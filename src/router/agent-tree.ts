import type { AgentNode } from "./agent-node.js";

/** The agent called `name`: `root` itself, else the first match among its descendants (depth-first). */
export function findAgent(root: AgentNode, name: string): AgentNode | undefined {
  return root.name === name ? root : findSubAgent(root, name);
}

/** The first descendant of `root` called `name`, depth-first in declared order; never `root` itself. */
export function findSubAgent(root: AgentNode, name: string): AgentNode | undefined {
  for (const sub of root.subAgents) {
    const found = findAgent(sub, name);
    if (found) return found;
  }
  return undefined;
}

/** The top of the tree `agent` belongs to. */
export function rootOf(agent: AgentNode): AgentNode {
  let node = agent;
  while (node.parentAgent) node = node.parentAgent;
  return node;
}
