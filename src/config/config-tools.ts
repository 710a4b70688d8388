import type { z } from "zod";
import { AgentTool } from "../agents/agent-tool.js";
import type { BaseAgent } from "../agents/base-agent.js";
import { exitLoop } from "../agents/exit-loop-tool.js";
import type { FunctionTool } from "../agents/function-tool.js";
import type { ToolEntry } from "../agents/toolset.js";
import type { AgentConfigRegistry } from "./agent-config-registry.js";
import { AgentToolArgsSchema, LongRunningArgsSchema, type ToolConfigSchema } from "./agent-config-schema.js";
import { AgentConfigError, configMessage, issueLines } from "./config-error.js";
import { McpToolsetArgsSchema, mcpToolsetFromArgs } from "./config-mcp.js";

type ToolYaml = z.infer<typeof ToolConfigSchema>;

/** The ADK tool classes and built-ins Baton builds from YAML, by their ADK names. */
export const BUILT_IN_TOOLS = ["AgentTool", "LongRunningFunctionTool", "McpToolset", "exit_loop"] as const;

/** What a tool entry needs from the loader: the registry and how to build a referenced agent. */
export interface ToolScope {
  registry: AgentConfigRegistry;
  file: string;
  /** Builds the agent a `{config_path}` names, relative to `file`; `field` locates it for errors. */
  agentAt: (configPath: string, field: string) => BaseAgent;
}

const accepted = (registry: AgentConfigRegistry): string => {
  const names = [...BUILT_IN_TOOLS, ...Object.keys(registry.tools ?? {})];
  return names.join(", ");
};

/** ADK `LongRunningFunctionTool(func)`: the same tool, marked long-running. */
const longRunning = (tool: FunctionTool): FunctionTool => ({
  name: tool.name,
  description: tool.description,
  isLongRunning: true,
  stateScopes: tool.stateScopes,
  declaration: () => tool.declaration(),
  run: (args, ctx) => tool.run(args, ctx),
});

function parsedArgs<S extends z.ZodType>(
  schema: S,
  tool: ToolYaml,
  scope: ToolScope,
  field: string,
): z.infer<S> {
  const parsed = schema.safeParse(tool.args ?? {});
  if (parsed.success) return parsed.data;
  const lines = issueLines(scope.file, schema, parsed.error).map((line) =>
    line.replace(`${scope.file}: `, `${scope.file}: ${field}.args.`),
  );
  throw new AgentConfigError(lines.join("\n"));
}

function registered(name: string, scope: ToolScope, field: string): FunctionTool {
  const tools = scope.registry.tools ?? {};
  const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
  if (tool !== undefined) return tool;
  throw new AgentConfigError(
    configMessage(scope.file, field, `unknown tool "${name}"; accepted: ${accepted(scope.registry)}`),
  );
}

/** One `tools` entry as a Baton tool (ADK `LlmAgent._resolve_tools`, with the registry for imports). */
export function resolveTool(tool: ToolYaml, index: number, scope: ToolScope): ToolEntry {
  const field = `tools[${index}]`;
  switch (tool.name) {
    case "AgentTool": {
      const args = parsedArgs(AgentToolArgsSchema, tool, scope, field);
      const agent = scope.agentAt(args.agent.config_path, `${field}.args.agent.config_path`);
      return new AgentTool({
        agent,
        ...(args.skip_summarization === undefined ? {} : { skipSummarization: args.skip_summarization }),
      });
    }
    case "McpToolset": {
      const args = parsedArgs(McpToolsetArgsSchema, tool, scope, field);
      return mcpToolsetFromArgs(args, scope.file, field);
    }
    case "LongRunningFunctionTool": {
      const args = parsedArgs(LongRunningArgsSchema, tool, scope, field);
      return longRunning(registered(args.func, scope, `${field}.args.func`));
    }
    default: {
      if (tool.args !== undefined) {
        throw new AgentConfigError(
          configMessage(
            scope.file,
            `${field}.args`,
            `"${tool.name}" takes no args (only AgentTool, LongRunningFunctionTool and McpToolset do)`,
          ),
        );
      }
      return tool.name === "exit_loop" ? exitLoop : registered(tool.name, scope, `${field}.name`);
    }
  }
}
