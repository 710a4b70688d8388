import type { AgentNode } from "../router/agent-node.js";
import { transferTargets } from "../router/transfer-targets.js";
import { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "./constants.js";
import { formatAgentNames } from "./transfer-instruction.js";

/** What a `transfer_to_agent` call (or a tool setting `transferToAgent`) amounts to. */
export type TransferResolution<N> =
  | { kind: "transfer"; target: N }
  | { kind: "invalid"; response: { error: string } };

/**
 * Checks a requested transfer against the caller's current targets (§3.2). Baton never raises here: an
 * invalid name becomes an error response the model can read and recover from (§3.4).
 */
export function resolveTransfer<N extends AgentNode<N>>(
  caller: AgentNode<N>,
  requestedName: unknown,
): TransferResolution<N> {
  const targets = transferTargets(caller);
  if (typeof requestedName === "string" && requestedName !== "") {
    const target = targets.find((candidate) => candidate.name === requestedName);
    if (target) return { kind: "transfer", target };
  }
  const valid =
    targets.length > 0
      ? `Valid targets: ${formatAgentNames(targets)}.`
      : `Agent "${caller.name}" has no transfer targets.`;
  return { kind: "invalid", response: { error: `${problemWith(requestedName, caller)} ${valid}` } };
}

function problemWith(requestedName: unknown, caller: { name: string }): string {
  if (typeof requestedName === "string" && requestedName !== "") {
    return `Cannot transfer to "${requestedName}": it is not a transfer target of agent "${caller.name}".`;
  }
  const got =
    requestedName === "" ? "an empty string" : requestedName === null ? "null" : typeof requestedName;
  return `${TRANSFER_TOOL_NAME} needs ${AGENT_NAME_PARAM} as a non-empty string, got ${got}.`;
}
