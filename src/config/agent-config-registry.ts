import type {
  AfterModelCallback,
  AfterToolCallback,
  AgentCallback,
  BeforeModelCallback,
  BeforeToolCallback,
} from "../agents/callbacks.js";
import type { ExampleProvider } from "../agents/examples-text.js";
import type { FunctionTool } from "../agents/function-tool.js";
import type { ToolUnion } from "../agents/request-tool.js";
import type { ModelSpec } from "../core/ports.js";
import type { NodeLike } from "../workflow/node-like.js";

type Named<T> = Readonly<Record<string, T>>;

/**
 * A tool class YAML builds with `args` (`tools: [{name: McpToolset, args: {…}}]`), as an entry of Baton
 * offers it: `mcpToolClasses` from `@baton-agents/core/mcp` builds ADK's `McpToolset`. It checks its own
 * args and throws an `AgentConfigError` naming `at.file` and `at.field` when they are wrong.
 */
export type ConfigToolClass = (args: unknown, at: { file: string; field: string }) => ToolUnion;

/**
 * What YAML refers to by name, as the app passes it: ADK resolves a dotted Python name
 * (`my_app.tools.lookup`) by importing it; Baton looks the same string up here. A name the YAML uses
 * and the registry lacks is an error naming the file, the field and the registered names.
 * @example
 * const registry = { tools: { "helpdesk.tools.lookup_invoice": lookupInvoice },
 *   beforeModel: { "helpdesk.callbacks.redact": redact } };
 */
export interface AgentConfigRegistry {
  /** Function tools for `tools: [{name}]` and `LongRunningFunctionTool`'s `func`. */
  tools?: Named<FunctionTool>;
  /** `before_agent_callbacks` and `after_agent_callbacks`. */
  agentCallbacks?: Named<AgentCallback>;
  beforeModel?: Named<BeforeModelCallback>;
  afterModel?: Named<AfterModelCallback>;
  beforeTool?: Named<BeforeToolCallback>;
  afterTool?: Named<AfterToolCallback>;
  /** Examples providers for `ExampleTool`'s `examples: <name>` (ADK's `BaseExampleProvider` by dotted name). */
  exampleProviders?: Named<ExampleProvider>;
  /**
   * A `Workflow`'s nodes its `edges` name (ADK names a node function by its dotted Python name): a function
   * (a `FunctionNode` named after the name's last segment), a node or an agent; `FunctionNode` files'
   * `func_code` too. A name found only in `tools` is a `ToolNode`.
   */
  nodes?: Named<NodeLike>;
  /**
   * Tool classes built with `args` beyond Baton's own (AgentTool, LongRunningFunctionTool, ExampleTool), by
   * their ADK class name: `{ toolClasses: mcpToolClasses }` (from `@baton-agents/core/mcp`) for `McpToolset`.
   */
  toolClasses?: Named<ConfigToolClass>;
}

/** How `loadAgentConfig` builds a tree. */
export interface LoadAgentConfigOptions {
  /** The config files: path (`/`-separated, relative to a common root) → YAML text. */
  files: Readonly<Record<string, string>>;
  /** The root agent's file among `files`. Default `root_agent.yaml`. */
  root?: string;
  registry?: AgentConfigRegistry;
  /**
   * Maps a YAML `model` to Baton's model. Default: a `provider:model` string is used as is; a bare name
   * is a Gemini model, as ADK reads it (`gemini-2.5-flash` → `google:gemini-2.5-flash`).
   */
  model?: (name: string) => ModelSpec;
}
