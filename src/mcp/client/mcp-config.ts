import * as z from "zod";
import type { ConfigToolClass } from "../../config/agent-config-registry.js";
import { AgentConfigError, configMessage } from "../../config/config-error.js";
import { configArgs } from "../../config/config-tools.js";
import { McpToolset } from "./mcp-toolset.js";

/** ADK `StreamableHTTPConnectionParams` / `SseConnectionParams` as YAML writes them. */
const HttpParamsSchema = z.strictObject({
  url: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  timeout: z.number().positive().optional(),
  sse_read_timeout: z.number().positive().optional(),
  terminate_on_close: z.boolean().optional(),
});

/** ADK `McpToolsetConfig`'s fields Baton serves (`stdio_connection_params` is refused with a reason). */
const McpToolsetArgsSchema = z.strictObject({
  streamable_http_connection_params: HttpParamsSchema.optional(),
  sse_connection_params: HttpParamsSchema.optional(),
  stdio_connection_params: z.unknown().optional(),
  stdio_server_params: z.unknown().optional(),
  tool_filter: z.array(z.string()).optional(),
  tool_name_prefix: z.string().optional(),
  require_confirmation: z.boolean().optional(),
});
type McpToolsetArgs = z.infer<typeof McpToolsetArgsSchema>;

const STDIO_REFUSED =
  "McpToolset cannot use stdio on Cloudflare Workers: a Worker cannot start a process. Run the MCP server " +
  "with its Streamable HTTP transport (or behind an HTTP bridge) and use streamable_http_connection_params: " +
  "{url: …} instead, or sse_connection_params for an older HTTP+SSE server.";

/** An `McpToolset` entry of Agent Config YAML (ADK `McpToolset.from_config`). */
function mcpToolsetFromArgs(args: McpToolsetArgs, file: string, field: string): McpToolset {
  const stdio =
    args.stdio_connection_params !== undefined ? "stdio_connection_params" : "stdio_server_params";
  if (args.stdio_connection_params !== undefined || args.stdio_server_params !== undefined)
    throw new AgentConfigError(configMessage(file, `${field}.args.${stdio}`, STDIO_REFUSED));
  const http = args.streamable_http_connection_params;
  const sse = args.sse_connection_params;
  if ((http === undefined) === (sse === undefined))
    throw new AgentConfigError(
      configMessage(
        file,
        `${field}.args`,
        "McpToolset takes exactly one of streamable_http_connection_params and sse_connection_params",
      ),
    );
  const given = http ?? sse;
  if (given === undefined)
    throw new AgentConfigError(configMessage(file, `${field}.args`, "no connection params"));
  try {
    return new McpToolset({
      connectionParams: {
        type: sse === undefined ? "streamable-http" : "sse",
        url: given.url,
        ...(given.headers === undefined ? {} : { headers: given.headers }),
        ...(given.timeout === undefined ? {} : { timeout: given.timeout }),
        ...(given.sse_read_timeout === undefined ? {} : { sseReadTimeout: given.sse_read_timeout }),
      },
      ...(args.tool_filter === undefined ? {} : { toolFilter: args.tool_filter }),
      ...(args.tool_name_prefix === undefined ? {} : { toolNamePrefix: args.tool_name_prefix }),
      ...(args.require_confirmation === undefined ? {} : { requireConfirmation: args.require_confirmation }),
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new AgentConfigError(configMessage(file, `${field}.args`, detail));
  }
}

const mcpToolset: ConfigToolClass = (args, at) =>
  mcpToolsetFromArgs(configArgs(McpToolsetArgsSchema, args, at), at.file, at.field);

/**
 * ADK's `McpToolset` (and its older spelling `MCPToolset`) for Agent Config YAML: give it to the config
 * registry, `loadAgentConfig({ files, registry: { toolClasses: mcpToolClasses } })`.
 */
export const mcpToolClasses: Readonly<Record<string, ConfigToolClass>> = {
  McpToolset: mcpToolset,
  MCPToolset: mcpToolset,
};
