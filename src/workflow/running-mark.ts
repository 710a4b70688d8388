import { BatonError } from "../core/errors.js";
import type { WorkflowNode } from "./node.js";
import type { NodeContext } from "./node-context.js";
import { childPath } from "./node-path.js";

/**
 * Stores that a node which is not idempotent starts now, before its body runs: a content-less event at the
 * node's path whose `agentState` says it runs (routing and history skip such events). If the turn dies
 * before the node's output is stored, the resumed turn finds this mark with no output after it and does not
 * run the node again (decision 049), as an unanswered call of a tool that is not idempotent (decision 028).
 */
export async function markRunning(
  parent: NodeContext,
  name: string,
  runId: string,
  branch: string | undefined,
  segment = name,
): Promise<void> {
  const event = parent.newEvent({ author: name, actions: { agentState: { status: "running", runId } } });
  const onBranch = branch ?? event.branch;
  await parent.channel.push({
    ...event,
    ...(onBranch === undefined ? {} : { branch: onBranch }),
    nodeInfo: { path: childPath(parent.nodePath, segment) },
  });
}

/** The failure of a node a crash cut off that may not run twice: `NODE_INTERRUPTED`, at the node. */
export function interruptedNode(
  parent: NodeContext,
  node: WorkflowNode,
  name: string,
  segment = name,
): BatonError {
  return new BatonError(
    "NODE_INTERRUPTED",
    `Node '${name}' was interrupted before it finished (the turn stopped while it ran). It was not run ` +
      "again, since it is not idempotent and running it twice could repeat its effect; it may or may not " +
      `have taken effect. Declare it idempotent (${node.kind} node option \`idempotent: true\`) if it is safe to repeat.`,
    { agentName: name, nodePath: childPath(parent.nodePath, segment) },
  );
}
