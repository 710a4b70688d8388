import type { AgentNode } from "./agent-node.js";

/**
 * The agents `agent` may hand off to, in ADK's order (ADK-SEMANTICS §3.2): its sub-agents, then its
 * parent, then its peers. Parent and peers count only when the parent itself can transfer. An agent
 * without a `transferPolicy` (remote, workflow) has no targets. Duplicates are kept, as in ADK.
 */
export function transferTargets<N extends AgentNode<N>>(agent: AgentNode<N>): N[] {
  const policy = agent.transferPolicy;
  if (!policy) return [];
  const targets = [...agent.subAgents];
  const parent = agent.parentAgent;
  if (!parent?.transferPolicy) return targets;
  if (!policy.disallowTransferToParent) targets.push(parent);
  if (!policy.disallowTransferToPeers) {
    // ADK tells peers apart from self by name.
    targets.push(...parent.subAgents.filter((peer) => peer.name !== agent.name));
  }
  return targets;
}

/**
 * Whether a transfer to `agent` sticks across turns (ADK-SEMANTICS §2.1): every agent from `agent` up to
 * and including the root can transfer and none forbids going back to its parent.
 */
export function isTransferable<N extends AgentNode<N>>(agent: AgentNode<N>): boolean {
  for (let node: AgentNode<N> | undefined = agent; node; node = node.parentAgent) {
    if (!node.transferPolicy || node.transferPolicy.disallowTransferToParent) return false;
  }
  return true;
}
