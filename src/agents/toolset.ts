import type { SharedScope } from "../core/state.js";
import type { CallbackContext } from "./callback-context.js";
import type { FunctionTool } from "./function-tool.js";

/**
 * A source of tools resolved per model step (ADK `BaseToolset`): the tools of an MCP server, say, which
 * can change between turns and may depend on the user. An agent's `tools` mixes tools and toolsets; a
 * toolset's tools take its place in the list, in the order it gives them.
 */
export interface Toolset {
  readonly kind: "toolset";
  /** Names the toolset in traces and errors. */
  readonly name: string;
  /** The shared scopes its tools (and whatever resolves them) may touch; left out, both. */
  readonly stateScopes?: readonly SharedScope[] | undefined;
  /**
   * The tools for this step. It must not throw for a source that is down: it answers the tools it
   * can (none, or the last ones it knew) and records why in the trace, so the turn goes on.
   */
  tools(ctx: CallbackContext): Promise<readonly FunctionTool[]>;
}

export const isToolset = (entry: object): entry is Toolset => "kind" in entry && entry.kind === "toolset";
