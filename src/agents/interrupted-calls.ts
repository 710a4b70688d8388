import { type FunctionCall, functionCallsOf, functionResponsesOf } from "../core/content.js";
import type { Event } from "../core/event.js";
import { interruptedMessage } from "../core/open-calls.js";
import type { AgentNode } from "../router/agent-node.js";
import type { FunctionTool } from "./function-tool.js";
import type { InvocationContext } from "./invocation-context.js";
import { executeFunctionCalls, type ToolCallbacks } from "./tool-execution.js";

export { interruptedMessage } from "../core/open-calls.js";

/**
 * The calls of this agent's newest model event in the invocation that have no stored response: what a
 * turn that stopped mid-tool (a crashed isolate, a lapsed lease) left behind. Long-running calls (waiting
 * for their answer from outside) are not among them.
 */
export function unansweredCalls(
  events: readonly Event[],
  invocationId: string,
  agentName: string,
): FunctionCall[] {
  // The invocation's events are the newest ones: walk back over them only, not the whole session.
  const answered = new Set<string | undefined>();
  let callEvent: Event | undefined;
  for (let i = events.length - 1; i >= 0 && !callEvent; i--) {
    const event = events[i];
    if (!event || event.invocationId !== invocationId) break;
    if (event.partial) continue;
    if (event.author === agentName && functionCallsOf(event.content).length > 0) callEvent = event;
    else for (const response of functionResponsesOf(event.content)) answered.add(response.id);
  }
  if (!callEvent) return [];
  const waiting = new Set(callEvent.longRunningToolIds ?? []);
  return functionCallsOf(callEvent.content).filter(
    (c) => c.id !== undefined && !answered.has(c.id) && !waiting.has(c.id),
  );
}

/**
 * When a resumed invocation finds calls of this agent that never answered, answers them before the next
 * model call (decision 028): an `idempotent` tool's call runs again; any other call is never run twice —
 * its response is an error saying it was interrupted, and the model decides what to do. `undefined`
 * when nothing was left unanswered.
 */
export function resumeInterruptedCalls(
  ctx: InvocationContext,
  agent: AgentNode,
  tools: ReadonlyMap<string, FunctionTool>,
  callbacks: ToolCallbacks,
): Promise<Event | undefined> | undefined {
  const calls = unansweredCalls(ctx.events, ctx.invocationId, agent.name);
  // Nothing to answer (every step of a turn that was not cut off): known now, without a promise.
  if (calls.length === 0) return undefined;
  const answering = new Map(tools);
  for (const call of calls) {
    const tool = tools.get(call.name);
    if (tool && !tool.idempotent) answering.set(call.name, interruptedTool(tool));
  }
  return executeFunctionCalls(ctx, agent, calls, answering, callbacks);
}

/** Stands in for a tool whose interrupted call must not run again: it answers that it was interrupted. */
function interruptedTool(tool: FunctionTool): FunctionTool {
  return {
    name: tool.name,
    description: tool.description,
    isLongRunning: false,
    declaration: () => tool.declaration(),
    run: async () => ({ ok: false, error: interruptedMessage(tool.name) }),
  };
}
