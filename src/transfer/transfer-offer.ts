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

/** An agent's instruction block as last built, with the targets and parent it was built for. */
interface KeptInstruction {
  readonly targets: readonly AgentNode[];
  readonly parent: AgentNode | undefined;
  readonly text: string;
}

/** Per agent: the block is the same text on every model call while its tree stays as it was. */
const instructions = new WeakMap<AgentNode, KeptInstruction>();

const sameTargets = (a: readonly AgentNode[], b: readonly AgentNode[]): boolean =>
  a.length === b.length && a.every((target, i) => target === b[i]);

function instructionOf(agent: AgentNode, targets: readonly AgentNode[]): string {
  const kept = instructions.get(agent);
  if (kept && kept.parent === agent.parentAgent && sameTargets(kept.targets, targets)) return kept.text;
  const text = transferInstruction(agent, targets);
  instructions.set(agent, { targets, parent: agent.parentAgent, text });
  return text;
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
    instruction: instructionOf(agent, targets),
    declaration: transferToolDeclaration(targets),
  };
}
