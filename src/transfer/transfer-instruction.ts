import type { AgentNode } from "../router/agent-node.js";
import { TRANSFER_TOOL_NAME } from "./constants.js";

/** How a target's two lines begin; `readTransferTargets` parses them back. */
export const TARGET_NAME_PREFIX = "Agent name: ";
export const TARGET_DESCRIPTION_PREFIX = "Agent description: ";

// ADK Python's wording and line breaks, verbatim: the conformance recordings compare it exactly.
const HEADER = "You have a list of other agents to transfer to:";
const RULES = [
  "If you are the best to answer the question according to your description,",
  "you can answer it.",
  "",
  "If another agent is better for answering the question according to its",
  `description, call \`${TRANSFER_TOOL_NAME}\` function to transfer the question to that`,
  "agent. When transferring, do not generate any text other than the function",
  "call.",
].join("\n");
const NOTE = `**NOTE**: the only available agents for \`${TRANSFER_TOOL_NAME}\` function are`;

/** The names as the instruction's NOTE line lists them: sorted, in backticks, comma-separated. */
export const formatAgentNames = (agents: readonly AgentNode[]): string =>
  agents
    .map((agent) => agent.name)
    .sort()
    .map((name) => `\`${name}\``)
    .join(", ");

const targetBlock = (target: AgentNode): string =>
  `\n${TARGET_NAME_PREFIX}${target.name}\n${TARGET_DESCRIPTION_PREFIX}${target.description}\n`;

/**
 * The system-instruction block that tells `agent` when and how to transfer, in ADK Python's exact text
 * (ADK-SEMANTICS §3.3, conformance PROTOCOL §3.4). Empty when there are no targets.
 */
export function transferInstruction(agent: AgentNode, targets: readonly AgentNode[]): string {
  if (targets.length === 0) return "";
  const body =
    `\n${HEADER}\n\n${targets.map(targetBlock).join("\n")}\n\n${RULES}\n\n` +
    `${NOTE}\n${formatAgentNames(targets)}.\n`;
  // ADK checks only that a parent exists, not that it can receive a transfer (the T05 quirk).
  const parent = agent.parentAgent;
  if (!parent || agent.transferPolicy?.disallowTransferToParent) return body;
  return `${body}\nIf neither you nor the other agents are best for the question, transfer to your parent agent ${parent.name}.\n`;
}

/** A transfer target as the instruction states it. */
export interface StatedTarget {
  name: string;
  description: string;
}

/** The targets a `transferInstruction` text states, in its order: the inverse of `targetBlock`. */
export function readTransferTargets(text: string): StatedTarget[] {
  const lines = text.split("\n");
  return lines.flatMap((line, i) => {
    const next = lines[i + 1] ?? "";
    if (!line.startsWith(TARGET_NAME_PREFIX) || !next.startsWith(TARGET_DESCRIPTION_PREFIX)) return [];
    return [
      {
        name: line.slice(TARGET_NAME_PREFIX.length),
        description: next.slice(TARGET_DESCRIPTION_PREFIX.length),
      },
    ];
  });
}
