/** The transfer flags of an agent that takes part in `transfer_to_agent` (LlmAgent, non-ADK runtimes). */
export interface TransferPolicy {
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
}

/**
 * What routing and transfer need to know of an agent. Agents of every kind implement it; the pure
 * folders never see the classes. `N` is the type of the node's relatives: the router's functions are
 * generic over it, so a tree of `BaseAgent`s gets `BaseAgent`s back, never a bare `AgentNode`.
 */
export interface AgentNode<N extends AgentNode<N> = AnyAgentNode> {
  readonly name: string;
  readonly description: string;
  readonly parentAgent: N | undefined;
  readonly subAgents: readonly N[];
  /**
   * Present on agents that are LLM-driven and can transfer (ADK: "has disallow_transfer_to_parent").
   * Absent on remote A2A agents and workflow agents: they are never sticky and have no transfer targets.
   */
  readonly transferPolicy: TransferPolicy | undefined;
}

/** A node whose relatives are plain nodes: what the pure folders' tests build. */
export interface AnyAgentNode extends AgentNode<AnyAgentNode> {}
