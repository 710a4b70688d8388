import type { BaseAgent } from "../agents/base-agent.js";
import type { FunctionTool } from "../agents/function-tool.js";
import type { WorkflowNode } from "./node.js";
import type { NodeContext } from "./node-context.js";

/**
 * A function node's body: it gets the node's context and its input and returns its output (a value, an
 * event, content), or yields several (a generator); returning a `RequestInput` pauses for the user. The
 * input's type is the function's own claim (declared as a method, so `(ctx, input: string) => …` fits).
 */
export type NodeFunction = { body(ctx: NodeContext, input: unknown): unknown }["body"];

/** Anything an edge or `ctx.runNode` takes: a node, an agent, a tool or a function (ADK `NodeLike`). */
export type NodeLike = WorkflowNode | BaseAgent | FunctionTool | NodeFunction;
