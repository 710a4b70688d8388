import type { AgentNode, TransferPolicy } from "../router/agent-node.js";
import type { BaseAgentConfig } from "./base-agent.js";
import { CallbackContext } from "./callback-context.js";
import type {
  AfterToolCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  OneOrMany,
  ToolErrorCallback,
} from "./callbacks.js";
import type { FunctionTool } from "./function-tool.js";
import type { IncludeContents } from "./history.js";
import type { InvocationContext } from "./invocation-context.js";
import { functionToolsOf, isRequestTool, type ToolUnion } from "./request-tool.js";
import { isToolset, type Toolset } from "./toolset.js";
import { transferTool } from "./transfer-tool.js";

export type InstructionProvider = (ctx: CallbackContext) => string | Promise<string>;

/**
 * What every agent a model drives takes, whichever loop runs it (`LlmAgent`, `RuntimeAgent`): its
 * instruction, tools, output key, history and transfer settings, and the tool and before-model callbacks.
 */
export interface ModelAgentConfig extends BaseAgentConfig {
  /** The system instruction. `{var}` and `{var?}` are filled from state; the transfer block is added. */
  instruction?: string | InstructionProvider;
  /** Tools the model calls (`functionTool`, `AgentTool`, `exitLoop`…) and tools that change the request (`googleSearch`, `ExampleTool`). */
  tools?: readonly ToolUnion[];
  /** Writes this agent's final text to `state[outputKey]` on the event that carries it. */
  outputKey?: string;
  /** `"none"`: the model sees only the current turn (ADK-SEMANTICS §3.5). */
  includeContents?: IncludeContents;
  disallowTransferToParent?: boolean;
  disallowTransferToPeers?: boolean;
  beforeModel?: OneOrMany<BeforeModelCallback>;
  beforeTool?: OneOrMany<BeforeToolCallback>;
  afterTool?: OneOrMany<AfterToolCallback>;
  onToolError?: OneOrMany<ToolErrorCallback>;
}

/** The transfer policy of a model-driven agent: both directions allowed unless its config says otherwise. */
export function transferPolicyOf(config: ModelAgentConfig): TransferPolicy {
  return {
    disallowTransferToParent: config.disallowTransferToParent ?? false,
    disallowTransferToPeers: config.disallowTransferToPeers ?? false,
  };
}

/** An agent's tools as built once: its fixed tools, its toolsets, and `transfer_to_agent`. */
export interface AgentTools {
  transferTool: FunctionTool;
  /** The fixed tools by name, `transfer_to_agent` included, so a call to it is validated, never "not found". */
  toolsByName: ReadonlyMap<string, FunctionTool>;
  /** The entries as given, in order (toolsets unresolved). */
  entries: readonly ToolUnion[];
  /** The fixed function tools, in order. */
  fixed: readonly FunctionTool[];
  toolsets: readonly Toolset[];
}

/** The tools one model step offers: in the agent's order (toolsets expanded), and by name with the transfer tool. */
export interface StepTools {
  list: readonly FunctionTool[];
  byName: ReadonlyMap<string, FunctionTool>;
}

/** Splits an agent's `tools` into its fixed tools and its toolsets, and adds its `transfer_to_agent` tool. */
export function agentTools(agent: AgentNode, entries: readonly ToolUnion[] = []): AgentTools {
  const transfer = transferTool(agent);
  const fixed = functionToolsOf(entries);
  return {
    transferTool: transfer,
    toolsByName: new Map([...fixed, transfer].map((t) => [t.name, t])),
    entries,
    fixed,
    toolsets: entries.filter(isToolset),
  };
}

/**
 * The callable tools of one step: the fixed ones as built, each toolset's resolved now (ADK
 * `canonical_tools`). An agent without toolsets pays nothing: its list and map are the ones built once.
 */
export function stepTools(tools: AgentTools, ctx: InvocationContext): StepTools | Promise<StepTools> {
  // Without toolsets the answer is known now: no promise (nor the microtask an await of one costs).
  if (tools.toolsets.length === 0) return { list: tools.fixed, byName: tools.toolsByName };
  return resolvedTools(tools, ctx);
}

async function resolvedTools(tools: AgentTools, ctx: InvocationContext): Promise<StepTools> {
  const cbCtx = new CallbackContext(ctx);
  const resolved = await Promise.all(
    tools.entries.map((entry) =>
      isToolset(entry) ? entry.tools(cbCtx) : isRequestTool(entry) ? [] : [entry],
    ),
  );
  const list = resolved.flat();
  return { list, byName: new Map([...list, tools.transferTool].map((t) => [t.name, t])) };
}
