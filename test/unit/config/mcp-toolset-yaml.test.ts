import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
import { McpToolset, mcpToolClasses } from "../../../src/mcp.js";

const agentWith = (tools: string) => ({
  "root_agent.yaml": `name: root\nmodel: demo:root\ninstruction: Help.\ntools:\n${tools}`,
});

const load = (tools: string) =>
  loadAgentConfig({ files: agentWith(tools), registry: { toolClasses: mcpToolClasses } });

describe("McpToolset in Agent Config YAML", () => {
  it("loads streamable_http_connection_params with ADK's names as an McpToolset", () => {
    const agent = load(`  - name: McpToolset
    args:
      streamable_http_connection_params: {url: "http://127.0.0.1:9000/mcp", headers: {X-Team: a}, timeout: 3, sse_read_timeout: 20}
      tool_filter: [get-sum, echo]
      tool_name_prefix: ev
`);
    const toolset = agent instanceof LlmAgent ? agent.tools.toolsets[0] : undefined;
    expect(toolset).toBeInstanceOf(McpToolset);
    if (!(toolset instanceof McpToolset)) return;
    expect(toolset.params).toEqual({
      type: "streamable-http",
      url: "http://127.0.0.1:9000/mcp",
      headers: { "X-Team": "a" },
      timeout: 3,
      sseReadTimeout: 20,
    });
    expect([toolset.config.toolFilter, toolset.config.toolNamePrefix]).toEqual([["get-sum", "echo"], "ev"]);
  });

  it("loads sse_connection_params as an SSE-only toolset", () => {
    const agent = load(
      `  - name: McpToolset\n    args: {sse_connection_params: {url: "http://127.0.0.1:9000/sse"}}\n`,
    );
    const toolset = agent instanceof LlmAgent ? agent.tools.toolsets[0] : undefined;
    expect(toolset instanceof McpToolset && toolset.params.type).toBe("sse");
  });

  it("refuses stdio_connection_params, saying why and what to use instead", () => {
    const yaml = `  - name: McpToolset
    args:
      stdio_connection_params: {timeout: 30, server_params: {command: npx, args: [-y, "@modelcontextprotocol/server-everything"]}}
      tool_filter: [echo]
`;
    expect(() => load(yaml)).toThrow(
      /root_agent\.yaml: tools\[0\]\.args\.stdio_connection_params: McpToolset cannot use stdio on Cloudflare Workers: a Worker cannot start a process\..*streamable_http_connection_params/,
    );
  });

  it("refuses args that name no connection, or an unknown field", () => {
    expect(() => load("  - name: McpToolset\n    args: {tool_filter: [echo]}\n")).toThrow(/exactly one of/);
    expect(() =>
      load(`  - name: McpToolset\n    args: {sse_connection_params: {url: "http://x/sse"}, bogus: 1}\n`),
    ).toThrow(/bogus/);
  });

  it("names the entry to import when the registry has no McpToolset: the core entry loads no MCP SDK", () => {
    const yaml = `  - name: McpToolset\n    args: {sse_connection_params: {url: "http://127.0.0.1:9000/sse"}}\n`;
    expect(() => loadAgentConfig({ files: agentWith(yaml) })).toThrow(
      /root_agent\.yaml: tools\[0\]\.name: "McpToolset" needs an entry: import \{ mcpToolClasses \} from "@baton-agents\/core\/mcp"/,
    );
  });
});
