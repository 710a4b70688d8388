import type { AgentNode } from "../router/agent-node.js";
import { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "./constants.js";

/** JSON Schema of the tool's arguments. A type alias (not an interface) so it fits `Record<string, unknown>`. */
export type TransferToolParameters = {
  type: "object";
  properties: Record<typeof AGENT_NAME_PARAM, { type: "string"; enum: string[]; description: string }>;
  required: [typeof AGENT_NAME_PARAM];
};

/** The `transfer_to_agent` declaration; structurally a `ToolDeclaration` of `models/`. */
export type TransferToolDeclaration = {
  name: typeof TRANSFER_TOOL_NAME;
  description: string;
  parameters: TransferToolParameters;
};

/**
 * The `transfer_to_agent` tool for an agent with these targets. The enum lists the target names in
 * target order, so the model can only name a valid target. Offer it only when `targets` is non-empty: an agent with no targets gets neither the tool nor the instruction (§3.2).
 */
export function transferToolDeclaration(targets: readonly AgentNode[]): TransferToolDeclaration {
  return {
    name: TRANSFER_TOOL_NAME,
    description:
      "Hands the user's question over to another agent that is better suited to answer it, " +
      "judging by that agent's description.",
    parameters: {
      type: "object",
      properties: {
        [AGENT_NAME_PARAM]: {
          type: "string",
          enum: targets.map((target) => target.name),
          description: "The name of the agent to hand the question to.",
        },
      },
      required: [AGENT_NAME_PARAM],
    },
  };
}
