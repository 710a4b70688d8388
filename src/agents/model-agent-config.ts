import type { AgentNode, TransferPolicy } from "../router/agent-node.js";
import type { BaseAgentConfig } from "./base-agent.js";
import type { CallbackContext } from "./callback-context.js";
import type {
  AfterToolCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  OneOrMany,
  ToolErrorCallback,
} from "./callbacks.js";
import type { FunctionTool } from "./function-tool.js";
import type { IncludeContents } from "./history.js";
import { functionToolsOf, type ToolUnion } from "./request-tool.js";
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

/**
 * The agent's `transfer_to_agent` tool and all its tools by name, that one included, so a call to it is
 * validated like any other, never "not found".
 */
export function agentTools(
  agent: AgentNode,
  tools: readonly ToolUnion[] = [],
): { transferTool: FunctionTool; toolsByName: ReadonlyMap<string, FunctionTool> } {
  const transfer = transferTool(agent);
  const callable = functionToolsOf(tools);
  return { transferTool: transfer, toolsByName: new Map([...callable, transfer].map((t) => [t.name, t])) };
}
