import type { FunctionTool } from "../agents/function-tool.js";
import { executeFunctionCalls } from "../agents/tool-execution.js";
import { functionResponsesOf, textOf } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import { SHARED_SCOPES, type SharedScope } from "../core/state.js";
import type { AgentNode } from "../router/agent-node.js";
import { BaseNode } from "./base-node.js";
import { isContent } from "./content-of.js";
import type { NodeSettings } from "./node.js";
import type { NodeContext } from "./node-context.js";

/**
 * A node that calls a tool with its input as the arguments (ADK 2.x `ToolNode`): content or a JSON string
 * is parsed, nothing is `{}`. The call goes through Baton's tool lifecycle (plugins, confirmation), its
 * response event is the node's, and the response is its output. Idempotent when the tool is.
 */
export class ToolNode extends BaseNode {
  readonly kind = "tool";

  constructor(
    readonly tool: FunctionTool,
    settings: NodeSettings & { name?: string } = {},
  ) {
    if (tool.isLongRunning)
      throw new BatonError("invalid_config", `ToolNode does not take a long-running tool ('${tool.name}').`);
    super({ idempotent: tool.idempotent ?? false, ...settings, name: settings.name ?? tool.name });
  }

  override sharedScopes(): readonly SharedScope[] {
    return this.tool.stateScopes ?? SHARED_SCOPES;
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown> {
    const args = this.checked("input", this.inputSchema, toolArgs(input));
    if (typeof args !== "object" || args === null || Array.isArray(args))
      throw new BatonError(
        "NODE_ERROR",
        `The input of ToolNode '${this.name}' must be an object of arguments.`,
      );
    // SAFETY: checked just above to be a non-null, non-array object.
    const call = {
      id: `${ctx.nodePath}:${ctx.runId}`,
      name: this.tool.name,
      args: args as Record<string, unknown>,
    };
    const tools = new Map([[this.tool.name, this.tool]]);
    const event = await executeFunctionCalls(ctx.invocation, caller(this.name), [call], tools, {});
    if (!event) return;
    const response = functionResponsesOf(event.content)[0]?.response;
    yield { ...event, author: this.name, ...(response === undefined ? {} : { output: response }) };
  }
}

/** What a tool call from a node is made by: a caller with no transfer targets. */
const caller = (name: string): AgentNode => ({
  name,
  description: "",
  parentAgent: undefined,
  subAgents: [],
  transferPolicy: undefined,
});

/** A node input as tool arguments, as ADK coerces it. */
function toolArgs(input: unknown): unknown {
  let args = isContent(input) ? textOf(input) : input;
  if (typeof args === "string") {
    const trimmed = args.trim();
    if (trimmed === "") args = undefined;
    else {
      try {
        args = JSON.parse(trimmed);
      } catch {
        // Not JSON: left as the string, which the check below refuses.
      }
    }
  }
  return args ?? {};
}
