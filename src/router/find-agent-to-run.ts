import { functionCallsOf, functionResponsesOf } from "../core/content.js";
import { type Event, isErrorWithoutContent } from "../core/event.js";
import type { AgentNode } from "./agent-node.js";
import { findAgent, findSubAgent } from "./agent-tree.js";
import { newestFirst } from "./newest-first.js";
import { isTransferable, transferTargets } from "./transfer-targets.js";

/**
 * Picks the agent that owns the next turn (ADK-SEMANTICS §2.4, with the project's fix for #7458).
 * Scans newest first and stops at the first decision, so the cost follows how far back the deciding
 * event is, not the length of the session.
 *
 * @param events the session's events, oldest first, including the new user event.
 * @param log receives the "Event from an unknown agent" warning.
 * @example
 * const agent = findAgentToRun(session.events, rootAgent, console.warn);
 */
export function findAgentToRun<N extends AgentNode<N>, R extends N>(
  events: readonly Event[],
  root: R & AgentNode<N>,
  log?: (message: string) => void,
): N {
  const caller = callerOfAnsweredCall(events, root);
  if (caller) return caller;
  for (const event of newestFirst(events)) {
    if (!countsForRouting(event)) continue;
    const author = event.author === root.name ? root : findSubAgent(root, event.author);
    if (!author) {
      // A workflow node's event (ADK 2.x `nodeInfo`): its author is a node, not an agent of the tree.
      if (!event.nodeInfo?.path) log?.(`Event from an unknown agent: ${event.author}, event id: ${event.id}`);
      continue;
    }
    // Before the root shortcut, so "root transferred, then the target failed" still reaches the target.
    const target = unfinishedTransferTarget(event, author);
    if (target) return target;
    if (author === root || isTransferable(author)) return author;
  }
  return root;
}

/**
 * The function-response rule, always on (Baton follows ADK v1): when the newest event answers a function
 * call, the agent that made the call runs; a call a workflow node made goes to the workflow whose node it
 * is (the first segment of the call's `nodeInfo.path`). A caller not in the tree falls through to the scan.
 */
function callerOfAnsweredCall<N extends AgentNode<N>, R extends N>(
  events: readonly Event[],
  root: R & AgentNode<N>,
): N | undefined {
  const older = newestFirst(events);
  const last = older.next();
  if (last.done) return undefined;
  // ADK matches on the first function response only.
  const callId = functionResponsesOf(last.value.content)[0]?.id;
  if (!callId) return undefined;
  for (const event of older) {
    if (functionCallsOf(event.content).some((call) => call.id === callId)) {
      return findAgent(root, event.author) ?? workflowOf(root, event.nodeInfo?.path);
    }
  }
  return undefined;
}

/** The agent of the tree a workflow node's path starts at (`triage/ask` → `triage`). */
function workflowOf<N extends AgentNode<N>, R extends N>(
  root: R & AgentNode<N>,
  path: string | undefined,
): N | undefined {
  if (!path) return undefined;
  const first = path.split("/")[0] ?? "";
  const at = first.indexOf("@");
  return findAgent(root, at < 0 ? first : first.slice(0, at));
}

/** User events, checkpoints and content-less error events say nothing about who replied. */
function countsForRouting(event: Event): boolean {
  if (event.author === "" || event.author === "user") return false;
  if (event.actions.agentState !== undefined || event.actions.endOfAgent) return false;
  return !isErrorWithoutContent(event);
}

/** The target of a transfer on `event`, if it is one of the author's targets and sticks. */
function unfinishedTransferTarget<N extends AgentNode<N>>(event: Event, author: AgentNode<N>): N | undefined {
  const name = event.actions.transferToAgent;
  if (!name) return undefined;
  const target = transferTargets(author).find((candidate) => candidate.name === name);
  return target && isTransferable(target) ? target : undefined;
}
