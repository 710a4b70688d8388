/** The transfer flags of an agent that takes part in `transfer_to_agent` (LlmAgent, non-ADK runtimes). */
export interface TransferPolicy {
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
}

/**
 * What routing and transfer need to know of an agent. Agents of every kind implement it; the pure
 * folders never see the classes.
 */
export interface AgentNode {
  readonly name: string;
  readonly description: string;
  readonly parentAgent: AgentNode | undefined;
  readonly subAgents: readonly AgentNode[];
  /**
   * Present on agents that are LLM-driven and can transfer (ADK: "has disallow_transfer_to_parent").
   * Absent on remote A2A agents and workflow agents: they are never sticky and have no transfer targets.
   */
  readonly transferPolicy: TransferPolicy | undefined;
}
