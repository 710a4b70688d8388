import { asAgentError, BatonError } from "../core/errors.js";

/**
 * A node failed and its error event is already stored (a remote agent's failed task, a model's error
 * event): the workflow stops without recording it twice (ADK claims the report the same way).
 */
export class ReportedFailure extends Error {
  override readonly name = "ReportedFailure";
}

/** A `ctx.runNode` child waits on an interrupt: its caller stops there and waits with it (ADK `NodeInterruptedError`). */
export class NodeInterrupted extends Error {
  override readonly name = "NodeInterrupted";
}

/** The workflow stopped (a sibling failed, the turn was canceled): the node's work no longer counts. */
export class WorkflowStopped extends Error {
  override readonly name = "WorkflowStopped";
}

/** Failures the runner of a node passes on untouched (no retry, no re-attribution). */
export const isControl = (error: unknown): boolean =>
  error instanceof ReportedFailure || error instanceof NodeInterrupted || error instanceof WorkflowStopped;

/**
 * A node's failure as the `BatonError` its error event is made of: authored by the innermost agent that
 * failed, else by the node; placed at the innermost node (`nodeInfo.path`). A function's own exception is
 * `NODE_ERROR` (an agent's stays `AGENT_ERROR`, a tool's `TOOL_ERROR`, a model's `MODEL_*`).
 */
export function nodeFailure(error: unknown, nodeName: string, nodePath: string): BatonError {
  const failure =
    error instanceof BatonError
      ? error.withAgent(nodeName)
      : error instanceof Error
        ? new BatonError("NODE_ERROR", `${error.name}: ${error.message}`, {
            agentName: nodeName,
            cause: error,
          })
        : asAgentError(error, nodeName);
  return failure.withNodePath(nodePath);
}
