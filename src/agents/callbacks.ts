import type { Content } from "../core/content.js";
import type { LlmRequest, LlmResponse } from "../core/llm.js";
import type { CallbackContext, ToolContext } from "./callback-context.js";
import type { FunctionTool } from "./function-tool.js";

type Awaitable<T> = T | Promise<T>;
/** A value, or nothing to mean "go on" (ADK's `None`). */
type Maybe<T> = Awaitable<T | undefined | void>;
/** ADK takes one callback or a list; the first that returns something wins (ADK-SEMANTICS §7.2). */
export type OneOrMany<F> = F | readonly F[];

export type ToolArgs = Record<string, unknown>;
export type ToolResult = Record<string, unknown>;

export type AgentCallback = (ctx: CallbackContext) => Maybe<Content>;
export type BeforeModelCallback = (ctx: CallbackContext, request: LlmRequest) => Maybe<LlmResponse>;
export type AfterModelCallback = (ctx: CallbackContext, response: LlmResponse) => Maybe<LlmResponse>;
export type ModelErrorCallback = (
  ctx: CallbackContext,
  request: LlmRequest,
  error: unknown,
) => Maybe<LlmResponse>;
export type BeforeToolCallback = (tool: FunctionTool, args: ToolArgs, ctx: ToolContext) => Maybe<ToolResult>;
export type AfterToolCallback = (
  tool: FunctionTool,
  args: ToolArgs,
  ctx: ToolContext,
  response: ToolResult,
) => Maybe<ToolResult>;
export type ToolErrorCallback = (
  tool: FunctionTool,
  args: ToolArgs,
  ctx: ToolContext,
  error: unknown,
) => Maybe<ToolResult>;

/** Runs callbacks in order and returns the first result that is not `undefined`/`null`. */
export async function firstResult<F extends (...args: never[]) => unknown, R>(
  callbacks: OneOrMany<F> | undefined,
  invoke: (callback: F) => Awaitable<R | undefined | void>,
): Promise<R | undefined> {
  if (callbacks === undefined) return undefined;
  const list: readonly F[] = typeof callbacks === "function" ? [callbacks] : callbacks;
  for (const callback of list) {
    const result = await invoke(callback);
    if (result !== undefined && result !== null) return result;
  }
  return undefined;
}
