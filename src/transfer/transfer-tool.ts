import type { AgentNode } from "../router/agent-node.js";
import { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "./constants.js";

/** JSON Schema of the tool's arguments. A type alias (not an interface) so it fits `Record<string, unknown>`. */
export type TransferToolParameters = {
  type: "object";
  properties: Record<typeof AGENT_NAME_PARAM, { type: "string"; enum: string[] }>;
  required: [typeof AGENT_NAME_PARAM];
};

/** The `transfer_to_agent` declaration; structurally a `ToolDeclaration` of `models/`. */
export type TransferToolDeclaration = {
  name: typeof TRANSFER_TOOL_NAME;
  description: string;
  parameters: TransferToolParameters;
};

/**
 * ADK Python 1.19's description: `transfer_to_agent`'s docstring as its automatic declaration builder
 * reads it (`__doc__` raw, so the inner indentation and the trailing indent stay).
 */
export const TRANSFER_TOOL_DESCRIPTION =
  "Transfer the question to another agent.\n\n" +
  "  This tool hands off control to another agent when it's more suitable to\n" +
  "  answer the user's question according to the agent's description.\n\n" +
  "  Note:\n" +
  "    For most use cases, you should use TransferToAgentTool instead of this\n" +
  "    function directly. TransferToAgentTool provides additional enum constraints\n" +
  "    that prevent LLMs from hallucinating invalid agent names.\n\n" +
  "  Args:\n" +
  "    agent_name: the agent name to transfer to.\n" +
  "  ";

/**
 * The `transfer_to_agent` tool for an agent with these targets, as ADK's `TransferToAgentTool` declares
 * it: the enum lists the target names in target order, so the model can only name a valid target. Offer
 * it only when `targets` is non-empty: an agent with no targets gets neither the tool nor the instruction (§3.2).
 */
export function transferToolDeclaration(targets: readonly AgentNode[]): TransferToolDeclaration {
  return {
    name: TRANSFER_TOOL_NAME,
    description: TRANSFER_TOOL_DESCRIPTION,
    parameters: {
      type: "object",
      properties: { [AGENT_NAME_PARAM]: { type: "string", enum: targets.map((target) => target.name) } },
      required: [AGENT_NAME_PARAM],
    },
  };
}
