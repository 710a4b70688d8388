import type { FunctionCall, Part } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import type { Event, EventActions } from "../core/event.js";
import { resolveTransfer } from "../transfer/resolve-transfer.js";
import type { BaseAgent } from "./base-agent.js";
import { ToolContext } from "./callback-context.js";
import {
  type AfterToolCallback,
  type BeforeToolCallback,
  firstResult,
  type OneOrMany,
  type ToolErrorCallback,
  type ToolResult,
} from "./callbacks.js";
import type { FunctionTool } from "./function-tool.js";
import type { InvocationContext } from "./invocation-context.js";

export interface ToolCallbacks {
  beforeTool?: OneOrMany<BeforeToolCallback> | undefined;
  afterTool?: OneOrMany<AfterToolCallback> | undefined;
  onToolError?: OneOrMany<ToolErrorCallback> | undefined;
}

interface CallOutcome {
  part: Part | undefined;
  ctx: ToolContext;
  /** The agent this call transferred to, resolved against the caller's targets. */
  target: BaseAgent | undefined;
}

/** The merged response of one model event's calls, and the transfer target it commits to, if any. */
export interface ToolResponse {
  event: Event;
  transferTarget: BaseAgent | undefined;
}

/** ADK wraps a non-object tool result as `{"result": value}`; `undefined` becomes `{"result": null}`. */
const asResponse = (value: unknown): ToolResult =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? // SAFETY: a non-null, non-array object is a string-keyed record.
      (value as ToolResult)
    : { result: value ?? null };

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A tool stand-in for callbacks about a name the agent does not have (ADK passes a stub too). */
const missingTool = (name: string): FunctionTool => ({
  name,
  description: "",
  isLongRunning: false,
  declaration: () => ({ name, description: "", parameters: { type: "object" } }),
  run: async () => ({ ok: false, error: `Tool '${name}' not found.` }),
});

async function runCall(
  ctx: InvocationContext,
  agent: BaseAgent,
  call: FunctionCall,
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
): Promise<CallOutcome> {
  const toolCtx = new ToolContext(ctx, call.id ?? "");
  const args = structuredClone(call.args ?? {});
  const tool = tools.get(call.name);
  const fail = async (tool: FunctionTool, error: BatonError): Promise<ToolResult> => {
    const handled = await firstResult(callbacks.onToolError, (cb) => cb(tool, args, toolCtx, error));
    if (handled !== undefined) return handled;
    throw error;
  };

  let response: ToolResult;
  // A long-running tool that returned nothing has no response yet: the client sends it later.
  let pending = false;
  if (tool === undefined) {
    const available = [...tools.keys()].join(", ");
    const error = new BatonError(
      "TOOL_NOT_FOUND",
      `Tool '${call.name}' not found. Available tools: ${available}`,
    );
    response = await fail(missingTool(call.name), error);
  } else {
    const cached = await firstResult(callbacks.beforeTool, (cb) => cb(tool, args, toolCtx));
    if (cached !== undefined) response = cached;
    else {
      try {
        const result = await tool.run(args, toolCtx);
        pending = tool.isLongRunning && result.ok && result.value == null;
        response = result.ok ? asResponse(result.value) : { error: result.error };
      } catch (error) {
        const message = `Tool '${call.name}' failed: ${errorMessage(error)}`;
        response = await fail(tool, new BatonError("TOOL_ERROR", message, { cause: error }));
      }
    }
    response =
      (await firstResult(callbacks.afterTool, (cb) => cb(tool, args, toolCtx, response))) ?? response;
  }

  let target: BaseAgent | undefined;
  const requested = toolCtx.actions.transferToAgent;
  if (requested !== undefined) {
    const transfer = resolveTransfer(agent, requested);
    if (transfer.kind === "transfer") target = transfer.target;
    else {
      response = transfer.response;
      pending = false;
      delete toolCtx.actions.transferToAgent;
    }
  }
  if (pending) return { part: undefined, ctx: toolCtx, target };
  const id = call.id ? { id: call.id } : {};
  return { part: { functionResponse: { ...id, name: call.name, response } }, ctx: toolCtx, target };
}

/**
 * Runs the calls of one model event concurrently and merges their responses into one event, parts in
 * call order and actions merged with later calls winning (ADK-SEMANTICS §1.4), so the transfer target
 * is the last call's that transferred. `undefined` when no call produced a response.
 */
export async function executeFunctionCalls(
  ctx: InvocationContext,
  agent: BaseAgent,
  calls: readonly FunctionCall[],
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
): Promise<ToolResponse | undefined> {
  const outcomes = await Promise.all(calls.map((call) => runCall(ctx, agent, call, tools, callbacks)));
  const parts = outcomes.flatMap((o) => (o.part ? [o.part] : []));
  if (parts.length === 0) return undefined;
  const actions: Partial<EventActions> = { stateDelta: {} };
  let transferTarget: BaseAgent | undefined;
  for (const { ctx: toolCtx, target } of outcomes) {
    transferTarget = target ?? transferTarget;
    Object.assign(actions.stateDelta ?? {}, toolCtx.state.delta);
    for (const [key, value] of Object.entries(toolCtx.actions)) {
      if (value !== undefined) Object.assign(actions, { [key]: value });
    }
  }
  return { event: ctx.newEvent({ content: { role: "user", parts }, actions }), transferTarget };
}
