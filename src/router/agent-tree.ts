import type { AgentNode } from "./agent-node.js";

/** The agent called `name`: `root` itself, else the first match among its descendants (depth-first). */
export function findAgent<N extends AgentNode<N>, R extends N>(
  root: R & AgentNode<N>,
  name: string,
): N | undefined {
  return root.name === name ? root : findSubAgent(root, name);
}

/** The first descendant of `root` called `name`, depth-first in declared order; never `root` itself. */
export function findSubAgent<N extends AgentNode<N>>(root: AgentNode<N>, name: string): N | undefined {
  for (const sub of root.subAgents) {
    const found = findAgent(sub, name);
    if (found) return found;
  }
  return undefined;
}
