/**
 * `@baton-agents/core/mcp`: MCP both ways, over the official MCP SDK, in its own entry so that only a
 * Worker that uses MCP bundles the SDK. `McpToolset` gives an agent an MCP server's tools; `mcpServer()`
 * (passed as `createWorker({ mcp })`) serves every app as an MCP server at `/mcp/<app>`.
 */

export type { ConnectionParamsInput as McpConnectionParams } from "./mcp/client/connection-params.js";
export { mcpToolClasses } from "./mcp/client/mcp-config.js";
export type { McpConfirmation, McpToolInfo } from "./mcp/client/mcp-tool.js";
export {
  type HeaderProvider,
  McpToolset,
  type McpToolsetConfig,
  type ToolFilter,
} from "./mcp/client/mcp-toolset.js";
export {
  type McpRequestExtra,
  type McpServedTool,
  type McpServerOptions,
  type McpToolAnswer,
  mcpServer,
} from "./mcp/server/mcp-route.js";
