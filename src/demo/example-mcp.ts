import type { CallbackContext } from "../agents/callback-context.js";
import type { FunctionTool } from "../agents/function-tool.js";
import type { Toolset } from "../agents/toolset.js";
import { McpToolset } from "../mcp/client/mcp-toolset.js";

const toolsets = new Map<string, McpToolset>();

/**
 * The tools of the MCP server the var `MCP_EXAMPLE_URL` names (`npm run mcp:example` serves one), or
 * none when it is unset: the demo then runs as before, offline.
 */
export const exampleMcpTools: Toolset = {
  kind: "toolset",
  name: "example_mcp_server",
  stateScopes: [],
  async tools(ctx: CallbackContext): Promise<readonly FunctionTool[]> {
    const url = ctx.invocation.services.env.MCP_EXAMPLE_URL;
    if (typeof url !== "string" || url === "") return [];
    const toolset = toolsets.get(url) ?? new McpToolset({ url });
    toolsets.set(url, toolset);
    return toolset.tools(ctx);
  },
};
