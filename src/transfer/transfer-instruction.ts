import type { AgentNode } from "../router/agent-node.js";
import { TRANSFER_TOOL_NAME } from "./constants.js";

/** The names as the instruction's NOTE line lists them: sorted, in backticks, comma-separated. */
export const formatAgentNames = (agents: readonly AgentNode[]): string =>
  agents
    .map((agent) => agent.name)
    .sort()
    .map((name) => `\`${name}\``)
    .join(", ");

/**
 * The system-instruction block that tells `agent` when and how to transfer (ADK-SEMANTICS §3.3).
 * Empty when there are no targets.
 */
export function transferInstruction(agent: AgentNode, targets: readonly AgentNode[]): string {
  if (targets.length === 0) return "";
  const lines = ["You can hand the conversation over to one of these other agents:", ""];
  for (const target of targets) {
    lines.push(`Agent name: ${target.name}`, `Agent description: ${target.description}`, "");
  }
  lines.push(
    "If your own description makes you the best agent for the question, answer it yourself.",
    `If another agent's description fits the question better, call \`${TRANSFER_TOOL_NAME}\` with that ` +
      "agent's name to hand the question over. When you transfer, output nothing besides the function call.",
    "",
    `NOTE: the only valid agent names are ${formatAgentNames(targets)}.`,
  );
  // ADK checks only that a parent exists, not that it can receive a transfer (the T05 quirk).
  const parent = agent.parentAgent;
  if (parent && !agent.transferPolicy?.disallowTransferToParent) {
    lines.push(
      "",
      `If neither you nor the other agents fit the question, transfer to your parent agent ${parent.name}.`,
    );
  }
  return lines.join("\n");
}
