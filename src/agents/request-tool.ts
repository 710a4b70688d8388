import type { Content } from "../core/content.js";
import type { LlmRequest, ModelSpec } from "../core/llm.js";
import type { CallbackContext } from "./callback-context.js";
import type { FunctionTool } from "./function-tool.js";
import { isToolset, type Toolset } from "./toolset.js";

/** What a request tool sees while a request is built (the part of ADK's `ToolContext` its tools read there). */
export interface RequestToolContext {
  /** The agent's model as ADK names it (`gemini-2.5-flash`), or `undefined` when it has none. */
  readonly modelName: string | undefined;
  /** The user's message that began the invocation. */
  readonly userContent: Content | undefined;
  /**
   * The step's callback context: its artifacts and memory (`load_artifacts`, `preload_memory`). Absent
   * where a tool is asked outside a turn (tests of a tool alone).
   */
  readonly callbackContext?: CallbackContext;
}

/**
 * A tool the model never calls: it changes each request instead (ADK's `process_llm_request` of a tool with
 * no declaration), such as Gemini's built-in tools and `ExampleTool`. It sits in an agent's `tools` beside
 * function tools and runs, in list order, after the request is built.
 */
export interface RequestTool {
  readonly kind: "request";
  /** ADK's name for it (`google_search`, `example_tool`). */
  readonly name: string;
  /**
   * Throws a `BatonError("invalid_config")` naming the agent when its model cannot take this tool. Run when
   * the app is defined, so a misconfigured tree fails at load, not on its first turn.
   */
  checkModel?(model: ModelSpec | undefined, agentName: string): void;
  processRequest(request: LlmRequest, ctx: RequestToolContext): void | Promise<void>;
}

/** What an agent's `tools` holds: tools the model calls, tools that change the request, and toolsets (`McpToolset`). */
export type ToolUnion = FunctionTool | RequestTool | Toolset;

export const isRequestTool = (tool: ToolUnion): tool is RequestTool =>
  "kind" in tool && tool.kind === "request";

/** The fixed tools the model can call, in order (a toolset's are resolved per step: `stepTools`). */
export const functionToolsOf = (tools: readonly ToolUnion[] = []): FunctionTool[] =>
  tools.flatMap((tool) => (isRequestTool(tool) || isToolset(tool) ? [] : [tool]));

/** The request tools, in order. */
export const requestToolsOf = (tools: readonly ToolUnion[] = []): RequestTool[] =>
  tools.flatMap((tool) => (isRequestTool(tool) ? [tool] : []));

/** ADK's `LlmRequest.append_instructions`: the blocks joined by blank lines, after a blank line if there is an instruction. */
export function appendInstructions(request: LlmRequest, blocks: readonly string[]): void {
  if (blocks.length === 0) return;
  const added = blocks.join("\n\n");
  request.systemInstruction =
    request.systemInstruction === "" ? added : `${request.systemInstruction}\n\n${added}`;
}
