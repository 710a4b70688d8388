import type { FunctionCall, Part } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import type { Event, EventActions } from "../core/event.js";
import { ATTR, NO_ATTRIBUTES, type OpenSpan } from "../core/trace.js";
import type { AgentNode } from "../router/agent-node.js";
import { resolveTransfer } from "../transfer/resolve-transfer.js";
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
import { pluginHooks, withPlugins } from "./plugins.js";
import { toolSpanAttributes } from "./span-attributes.js";
import { confirmationRequestEvent, confirmedCalls, type ToolConfirmation } from "./tool-confirmation.js";
import { untilAborted } from "./until-aborted.js";

export interface ToolCallbacks {
  beforeTool?: OneOrMany<BeforeToolCallback> | undefined;
  afterTool?: OneOrMany<AfterToolCallback> | undefined;
  onToolError?: OneOrMany<ToolErrorCallback> | undefined;
}

/** One call's result: its function-response part (none while a long-running call waits) and its context. */
export interface CallOutcome {
  part: Part | undefined;
  ctx: ToolContext;
  /** The call's `execute_tool` span, ended; the response event's id is added to it. */
  span?: OpenSpan;
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

/**
 * One function call through ADK's tool lifecycle (ADK-SEMANTICS §7.2): `beforeTool`, the tool,
 * `onToolError`, `afterTool`, then the check of a requested transfer against the caller's targets.
 * Foreign agent loops (`runtimes/`) run each call of theirs through it. Records an `execute_tool` span.
 */
export async function runToolCall(
  ctx: InvocationContext,
  agent: AgentNode,
  call: FunctionCall,
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
  confirmations?: ReadonlyMap<string, ToolConfirmation>,
): Promise<CallOutcome> {
  const { recording } = ctx.recorder;
  const attributes = recording ? toolSpanAttributes(ctx, call.name, call.id, call.args) : NO_ATTRIBUTES;
  const span = ctx.recorder.start(`execute_tool ${call.name}`, attributes, ctx.span);
  try {
    const outcome = await lifecycle(ctx, agent, call, tools, callbacks, confirmations, span);
    if (recording) {
      const transfer = outcome.ctx.actions.transferToAgent;
      span.end({
        [ATTR.toolResponse]: JSON.stringify(
          outcome.part?.functionResponse?.response ?? "pending (long-running)",
        ),
        ...(transfer ? { [ATTR.transferTo]: transfer } : {}),
      });
    }
    return { ...outcome, span };
  } catch (error) {
    span.end({}, error);
    throw error;
  }
}

async function lifecycle(
  ctx: InvocationContext,
  agent: AgentNode,
  call: FunctionCall,
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
  confirmations: ReadonlyMap<string, ToolConfirmation> | undefined,
  span: OpenSpan,
): Promise<CallOutcome> {
  const toolCtx = new ToolContext(ctx, call.id ?? "", call.id ? confirmations?.get(call.id) : undefined);
  toolCtx.span = span;
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
    const before = withPlugins(pluginHooks(ctx, "beforeTool"), callbacks.beforeTool);
    const cached = await firstResult(before, (cb) => cb(tool, args, toolCtx));
    if (cached !== undefined) response = cached;
    else {
      try {
        const result = await untilAborted(tool.run(args, toolCtx), ctx.runConfig.signal);
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

  const requested = toolCtx.actions.transferToAgent;
  if (requested !== undefined) {
    const transfer = resolveTransfer(agent, requested);
    if (transfer.kind === "invalid") {
      response = transfer.response;
      pending = false;
      delete toolCtx.actions.transferToAgent;
    }
  }
  if (pending) return { part: undefined, ctx: toolCtx };
  const id = call.id ? { id: call.id } : {};
  return { part: { functionResponse: { ...id, name: call.name, response } }, ctx: toolCtx };
}

/**
 * Runs the calls of one model event concurrently and merges their responses into one event, parts in
 * call order and actions merged with later calls winning (ADK-SEMANTICS §1.4). `undefined` when no call
 * produced a response.
 */
export async function executeFunctionCalls(
  ctx: InvocationContext,
  agent: AgentNode,
  calls: readonly FunctionCall[],
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
  confirmations?: ReadonlyMap<string, ToolConfirmation>,
): Promise<Event | undefined> {
  const outcomes = await Promise.all(
    calls.map((call) => runToolCall(ctx, agent, call, tools, callbacks, confirmations)),
  );
  return responseEvent(ctx, outcomes);
}

/** The merged function-response event of some call outcomes, in the order given; `undefined` when none answered. */
export function responseEvent(ctx: InvocationContext, outcomes: readonly CallOutcome[]): Event | undefined {
  const parts = outcomes.flatMap((o) => (o.part ? [o.part] : []));
  if (parts.length === 0) return undefined;
  const actions: Partial<EventActions> = {
    stateDelta: {},
    artifactDelta: {},
    requestedToolConfirmations: {},
  };
  for (const { ctx: toolCtx } of outcomes) {
    Object.assign(actions.stateDelta ?? {}, toolCtx.state.delta);
    Object.assign(actions.artifactDelta ?? {}, toolCtx.artifactDelta);
    const { requestedToolConfirmations, ...scalars } = toolCtx.actions;
    // Dict-valued actions merge across calls; scalars: the later call wins (ADK's deep merge).
    Object.assign(actions.requestedToolConfirmations ?? {}, requestedToolConfirmations);
    for (const [key, value] of Object.entries(scalars)) {
      if (value !== undefined) Object.assign(actions, { [key]: value });
    }
  }
  const event = ctx.newEvent({ content: { role: "user", parts }, actions });
  for (const { span } of outcomes) span?.set({ [ATTR.eventId]: event.id });
  return event;
}

/**
 * The events that follow a model event's calls, for any agent kind: an `adk_request_confirmation`
 * event when a tool asked for confirmation, then the merged function-response event (ADK's order).
 */
export async function* runFunctionCalls(
  ctx: InvocationContext,
  agent: AgentNode,
  calls: readonly FunctionCall[],
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
): AsyncGenerator<Event> {
  const responseEvent = await executeFunctionCalls(ctx, agent, calls, tools, callbacks);
  if (responseEvent === undefined) return;
  const confirmation = confirmationRequestEvent(ctx, calls, responseEvent);
  if (confirmation) yield confirmation;
  yield responseEvent;
}

/**
 * When the user's newest message answers `adk_request_confirmation` calls on this branch, re-runs the
 * original calls with the answers (confirmed ones run, rejected ones answer `{"error": …}`) and returns
 * their function-response event; `undefined` otherwise. Call it before building the next model request.
 */
export function resumeConfirmedCalls(
  ctx: InvocationContext,
  agent: AgentNode,
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
): Promise<Event | undefined> | undefined {
  const confirmed = confirmedCalls(ctx.events, ctx.branch);
  // Nothing to resume (every step but one after a confirmation): known now, without a promise.
  if (confirmed === undefined) return undefined;
  return executeFunctionCalls(ctx, agent, confirmed.calls, tools, callbacks, confirmed.confirmations);
}
