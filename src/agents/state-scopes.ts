import { SHARED_SCOPES, type SharedScope, scopesOfKeys, unionScopes } from "../core/state.js";
import type { BaseAgent } from "./base-agent.js";
import type { FunctionTool } from "./function-tool.js";
import { templateScopes } from "./instruction-template.js";
import { functionToolsOf, type ToolUnion } from "./request-tool.js";
import { isToolset, type Toolset } from "./toolset.js";

/** A tool's or toolset's shared scopes: what it declares, or both (through its context it may touch any key). */
export const toolScopes = (tool: FunctionTool | Toolset): readonly SharedScope[] =>
  tool.stateScopes ?? SHARED_SCOPES;

/** What a model-driven agent's settings can touch: its instruction template, output key and tools. */
export function settingsScopes(settings: {
  instruction?: unknown;
  outputKey?: string | undefined;
  tools?: readonly ToolUnion[] | undefined;
}): SharedScope[] {
  const { instruction, outputKey, tools = [] } = settings;
  return unionScopes(
    typeof instruction === "string" ? templateScopes(instruction) : [],
    scopesOfKeys(outputKey === undefined ? [] : [outputKey]),
    // Request tools (Gemini's built-ins, examples) read no state.
    ...functionToolsOf(tools).map(toolScopes),
    ...tools.filter(isToolset).map(toolScopes),
  );
}

/**
 * The shared scopes any agent of a tree may touch, sub-agents and the agents of `AgentTool`s included:
 * a turn of the tree reads a scope's store only if it is listed (ADK semantics are unchanged where it is).
 */
export function treeScopes(root: BaseAgent): SharedScope[] {
  const lists: (readonly SharedScope[])[] = [];
  const visit = (agent: BaseAgent): void => {
    lists.push(agent.sharedScopes());
    for (const sub of agent.subAgents) visit(sub);
  };
  visit(root);
  return unionScopes(...lists);
}
