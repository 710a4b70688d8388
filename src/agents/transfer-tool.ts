import type { AgentNode } from "../router/agent-node.js";
import { transferTargets } from "../router/transfer-targets.js";
import { TRANSFER_TOOL_NAME } from "../transfer/constants.js";
import { transferToolDeclaration } from "../transfer/transfer-tool.js";
import type { FunctionTool } from "./function-tool.js";

/**
 * The built-in `transfer_to_agent` tool for one agent. It only records the request
 * (`actions.transferToAgent`); the tool executor validates the name against the caller's current
 * targets for every tool alike, so a bad name becomes an `{"error": …}` response, never a crash.
 */
export function transferTool(agent: AgentNode): FunctionTool {
  return {
    name: TRANSFER_TOOL_NAME,
    stateScopes: [],
    description: "Transfers the question to another agent.",
    isLongRunning: false,
    declaration: () => transferToolDeclaration(transferTargets(agent)),
    async run(args, ctx) {
      const name = args.agent_name;
      ctx.actions.transferToAgent = typeof name === "string" ? name : "";
      return { ok: true, value: null };
    },
  };
}
