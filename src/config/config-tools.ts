import * as z from "zod";
import { AgentTool } from "../agents/agent-tool.js";
import type { BaseAgent } from "../agents/base-agent.js";
import { longRunningDescription } from "../agents/builtin-declarations.js";
import { ExampleTool } from "../agents/example-tool.js";
import { type Example, ExampleSchema } from "../agents/examples-text.js";
import { exitLoop } from "../agents/exit-loop-tool.js";
import type { FunctionTool } from "../agents/function-tool.js";
import { BuiltInCodeExecutor, GEMINI_TOOLS_BY_YAML_NAME } from "../agents/gemini-tools.js";
import { getUserChoice } from "../agents/get-user-choice-tool.js";
import { loadArtifactsTool } from "../agents/load-artifacts-tool.js";
import { loadMemoryTool, preloadMemoryTool } from "../agents/memory-tools.js";
import type { ToolUnion } from "../agents/request-tool.js";
import { lookupTable } from "../core/lookup-table.js";
import type { AgentConfigRegistry } from "./agent-config-registry.js";
import {
  AgentToolArgsSchema,
  type CodeExecutorSchema,
  ExampleToolArgsSchema,
  LongRunningArgsSchema,
  type ToolConfigSchema,
} from "./agent-config-schema.js";
import { AgentConfigError, configMessage, issueLines } from "./config-error.js";

type ToolYaml = z.infer<typeof ToolConfigSchema>;

/** The ADK tool classes and built-ins Baton builds from YAML, by their ADK names. */
export const BUILT_IN_TOOLS = [
  "AgentTool",
  "LongRunningFunctionTool",
  "ExampleTool",
  "exit_loop",
  "get_user_choice",
  "load_artifacts",
  "load_memory",
  "preload_memory",
  ...Object.keys(GEMINI_TOOLS_BY_YAML_NAME),
] as const;

/** `code_executor` names Baton accepts: Gemini's built-in executor, by its class name or ADK's dotted path. */
const BUILT_IN_EXECUTOR_NAMES = ["BuiltInCodeExecutor", "google.adk.code_executors.BuiltInCodeExecutor"];

/** What a tool entry needs from the loader: the registry and how to build a referenced agent. */
export interface ToolScope {
  registry: AgentConfigRegistry;
  file: string;
  /** Builds the agent a `{config_path}` names, relative to `file`; `field` locates it for errors. */
  agentAt: (configPath: string, field: string) => BaseAgent;
}

/** Tool classes of Baton's other entries that YAML may name: the entry to import when one is missing. */
const MCP_ENTRY =
  'import { mcpToolClasses } from "@baton-agents/core/mcp" and give the registry toolClasses: mcpToolClasses (its peers @modelcontextprotocol/client and /server installed)';
const ENTRY_TOOL_CLASSES: Readonly<Record<string, string | undefined>> = lookupTable({
  McpToolset: MCP_ENTRY,
  MCPToolset: MCP_ENTRY,
});

const accepted = (registry: AgentConfigRegistry): string => {
  const names = [
    ...BUILT_IN_TOOLS,
    ...Object.keys(registry.toolClasses ?? {}),
    ...Object.keys(registry.tools ?? {}),
  ];
  return names.join(", ");
};

/** ADK `LongRunningFunctionTool(func)`: the same tool, marked long-running, its description with ADK's note. */
const longRunning = (tool: FunctionTool): FunctionTool => ({
  name: tool.name,
  description: tool.description,
  isLongRunning: true,
  stateScopes: tool.stateScopes,
  declaration: () => {
    const declaration = tool.declaration();
    return { ...declaration, description: longRunningDescription(declaration.description) };
  },
  run: (args, ctx) => tool.run(args, ctx),
});

function parsedArgs<S extends z.ZodType>(
  schema: S,
  tool: ToolYaml,
  scope: ToolScope,
  field: string,
): z.infer<S> {
  return configArgs(schema, tool.args, { file: scope.file, field });
}

/** A tool entry's `args` checked by `schema`; an `AgentConfigError` naming each wrong field otherwise. */
export function configArgs<S extends z.ZodType>(
  schema: S,
  args: unknown,
  at: { file: string; field: string },
): z.infer<S> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const lines = issueLines(at.file, schema, parsed.error).map((line) =>
    line.replace(`${at.file}: `, `${at.file}: ${at.field}.args.`),
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

/** ADK `ExampleTool(examples)`: a list of examples, or a registered examples provider by name. */
function exampleTool(tool: ToolYaml, scope: ToolScope, field: string): ExampleTool {
  const { examples } = parsedArgs(ExampleToolArgsSchema, tool, scope, field);
  if (typeof examples === "string") {
    const providers = scope.registry.exampleProviders ?? {};
    const provider = Object.hasOwn(providers, examples) ? providers[examples] : undefined;
    if (provider !== undefined) return new ExampleTool(provider);
    const known = Object.keys(providers).join(", ") || "(none registered)";
    throw new AgentConfigError(
      configMessage(
        scope.file,
        `${field}.args.examples`,
        `unknown examples provider "${examples}"; accepted: ${known}`,
      ),
    );
  }
  const parsed = z.array(ExampleSchema).safeParse(examples);
  if (!parsed.success) {
    const lines = issueLines(scope.file, z.array(ExampleSchema), parsed.error).map((line) =>
      line.replace(`${scope.file}: `, `${scope.file}: ${field}.args.examples`),
    );
    throw new AgentConfigError(lines.join("\n"));
  }
  const list: Example[] = parsed.data;
  return new ExampleTool(list);
}

/** One `tools` entry as a Baton tool (ADK `LlmAgent._resolve_tools`, with the registry for imports). */
export function resolveTool(tool: ToolYaml, index: number, scope: ToolScope): ToolUnion {
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
    case "LongRunningFunctionTool": {
      const args = parsedArgs(LongRunningArgsSchema, tool, scope, field);
      return longRunning(registered(args.func, scope, `${field}.args.func`));
    }
    case "ExampleTool":
      return exampleTool(tool, scope, field);
    default: {
      const toolClasses = scope.registry.toolClasses ?? {};
      const toolClass = Object.hasOwn(toolClasses, tool.name) ? toolClasses[tool.name] : undefined;
      if (toolClass) return toolClass(tool.args, { file: scope.file, field });
      const entry = ENTRY_TOOL_CLASSES[tool.name];
      if (entry !== undefined)
        throw new AgentConfigError(
          configMessage(scope.file, `${field}.name`, `"${tool.name}" needs an entry: ${entry}`),
        );
      if (tool.args !== undefined) {
        throw new AgentConfigError(
          configMessage(
            scope.file,
            `${field}.args`,
            `"${tool.name}" takes no args (only AgentTool, LongRunningFunctionTool, ExampleTool and the registry's toolClasses do)`,
          ),
        );
      }
      if (tool.name === "exit_loop") return exitLoop;
      if (tool.name === "get_user_choice") return getUserChoice;
      if (tool.name === "load_artifacts") return loadArtifactsTool;
      if (tool.name === "load_memory") return loadMemoryTool;
      if (tool.name === "preload_memory") return preloadMemoryTool;
      return GEMINI_TOOLS_BY_YAML_NAME[tool.name] ?? registered(tool.name, scope, `${field}.name`);
    }
  }
}

/** `code_executor`: Gemini's built-in executor; any other (ADK's Python executors) cannot run on a Worker. */
export function resolveCodeExecutor(
  config: z.infer<typeof CodeExecutorSchema>,
  file: string,
): BuiltInCodeExecutor {
  if (BUILT_IN_EXECUTOR_NAMES.includes(config.name)) return new BuiltInCodeExecutor();
  throw new AgentConfigError(
    configMessage(
      file,
      "code_executor.name",
      `unknown code executor "${config.name}" (ADK's Python code executors cannot run on Workers); accepted: ${BUILT_IN_EXECUTOR_NAMES.join(", ")}`,
    ),
  );
}
