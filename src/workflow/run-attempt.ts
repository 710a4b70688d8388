import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import type { WorkflowNode } from "./node.js";
import type { NodeContext } from "./node-context.js";
import type { LazyAbort } from "./signals.js";

/**
 * One attempt of a node: its events, each completed with what the workflow knows (author, invocation,
 * `nodeInfo.path` and `outputFor`, branch, scope), read for the run's output, route, interrupts and reported
 * failure, and handed to the channel; the next is pulled only once it is stored. A `timeout` ends the attempt
 * with `NODE_TIMEOUT` and aborts the node's signal. Returns whether the node's input was recorded for resume.
 */
export async function runAttempt(
  child: NodeContext,
  node: WorkflowNode,
  input: unknown,
  stops: readonly LazyAbort[],
): Promise<boolean> {
  let recorded = false;
  const iterator = node.run(child, input)[Symbol.asyncIterator]();
  const deadline = stops.find((s) => s.timeout !== undefined);
  const expiry = deadline?.timeout !== undefined ? expire(node, deadline.timeout, deadline) : undefined;
  // Once the workflow stopped (a sibling failed) or the deadline passed, nothing more of the node counts.
  const stopped = stops.length > 0 ? Promise.race(stops.map((s) => s.whenStopped)) : undefined;
  try {
    for (;;) {
      const next = stopped ? await Promise.race([iterator.next(), stopped]) : await iterator.next();
      if (next.done) return recorded;
      for (const stop of stops) if (stop.stopped) throw stop.reason;
      recorded = (await consume(child, input, next.value)) || recorded;
    }
  } catch (error) {
    // Not awaited: a body stuck in an await would hold the failure back; it ends when it next resumes.
    void Promise.resolve(iterator.return?.(undefined)).catch(() => undefined);
    throw error;
  } finally {
    expiry?.clear();
  }
}

const timeoutError = (node: WorkflowNode): BatonError =>
  new BatonError("NODE_TIMEOUT", `Node '${node.name}' timed out after ${node.timeout} seconds.`, {
    agentName: node.name,
  });

/** Stops `deadline` with the node's timeout once `seconds` passed (its signal aborts, the attempt ends). */
function expire(node: WorkflowNode, seconds: number, deadline: LazyAbort) {
  const timer = setTimeout(() => deadline.stop(timeoutError(node)), seconds * 1000);
  return { clear: () => clearTimeout(timer) };
}

/** Completes, reads and sends one event of the attempt; `true` when it recorded the node's input. */
async function consume(child: NodeContext, input: unknown, raw: Event): Promise<boolean> {
  const path = child.nodePath;
  let event: Event = {
    ...raw,
    author: raw.author || child.nodeName,
    invocationId: raw.invocationId || child.invocation.invocationId,
    nodeInfo: {
      ...raw.nodeInfo,
      path,
      ...(raw.output === undefined ? {} : { outputFor: [path, ...child.outputForAncestors] }),
    },
  };
  const { branch } = child;
  if (branch !== undefined && event.branch === undefined) event.branch = branch;
  if (child.isolationScope !== undefined && event.isolationScope === undefined)
    event.isolationScope = child.isolationScope;
  if (event.output !== undefined) {
    child.output = event.output;
    // A child run already sent this output as its own: only state or artifacts still need the event.
    if (child.outputDelegated) {
      const { stateDelta, artifactDelta } = event.actions;
      if (Object.keys(stateDelta).length === 0 && Object.keys(artifactDelta).length === 0) return false;
      const { output: _output, content: _content, ...rest } = event;
      event = rest;
    }
  }
  if (event.actions.route !== undefined) child.route = event.actions.route;
  if (event.errorCode !== undefined)
    child.reportedError = { errorCode: event.errorCode, errorMessage: event.errorMessage };
  let recorded = false;
  const waiting = event.longRunningToolIds ?? [];
  if (waiting.length > 0) {
    for (const id of waiting) if (!child.interruptIds.includes(id)) child.interruptIds.push(id);
    // ADK keeps the input on the event that pauses, so the resumed node runs on the same input.
    event = { ...event, actions: { ...event.actions, agentState: { ...event.actions.agentState, input } } };
    recorded = true;
  }
  await child.channel.push(event);
  return recorded;
}
