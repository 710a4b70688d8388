import type { AgentNode } from "../router/agent-node.js";
import { transferTargets } from "../router/transfer-targets.js";
import { transferInstruction } from "./transfer-instruction.js";
import { type TransferToolDeclaration, transferToolDeclaration } from "./transfer-tool.js";

/** What an agent is offered for handing off: its targets, the instruction block and the tool. */
export interface TransferOffer {
  readonly targets: readonly AgentNode[];
  /** The system-instruction block (ADK-SEMANTICS §3.3). */
  readonly instruction: string;
  /** The `transfer_to_agent` declaration, its enum listing `targets` (§3.1). */
  readonly declaration: TransferToolDeclaration;
}

/**
 * The one place an agent's transfer offer is computed, for LlmAgent and non-ADK runtimes alike.
 * `undefined` when the agent has no targets: then it gets neither the tool nor the instruction (§3.2).
 */
export function transferOffer(agent: AgentNode): TransferOffer | undefined {
  const targets = transferTargets(agent);
  if (targets.length === 0) return undefined;
  return {
    targets,
    instruction: transferInstruction(agent, targets),
    declaration: transferToolDeclaration(targets),
  };
}
