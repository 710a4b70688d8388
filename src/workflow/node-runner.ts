import type { SignalSource } from "../core/signal-source.js";
import { NO_ATTRIBUTES, type SpanAttributes } from "../core/trace.js";
import { isControl, NodeInterrupted, nodeFailure, ReportedFailure } from "./failures.js";
import type { WorkflowNode } from "./node.js";
import { NodeContext } from "./node-context.js";
import { childPath, subBranch } from "./node-path.js";
import { retryDelaySeconds, shouldRetry } from "./retry.js";
import { runAttempt } from "./run-attempt.js";
import { LazyAbort } from "./signals.js";

/** One run of a node under a parent context (ADK `executeChildNode`). */
export interface ChildRun {
  parent: NodeContext;
  node: WorkflowNode;
  input: unknown;
  /** The run's name and id; the path is the parent's path and the name, unless given. */
  name?: string | undefined;
  runId?: string | undefined;
  path?: string | undefined;
  useAsOutput?: boolean | undefined;
  useSubBranch?: boolean | undefined;
  /** The branch to run on instead of the parent's (a join runs on what its inputs share). */
  branch?: string | undefined;
  isolationScope?: string | undefined;
  /** Its workflow's stop: the run's signal joins it, and the run ends when it stops. */
  stop?: LazyAbort | undefined;
  /** Answers it may resume with, instead of the parent's. */
  resumeInputs?: Record<string, unknown> | undefined;
  /** It goes on from a run a crash cut off in this invocation. */
  resumed?: boolean | undefined;
}

/**
 * Runs a node to its end: attempts (with its retry config, each with its timeout), its events sent on as
 * they come, and its result on the returned context (`output`, `route`, `interruptIds`). A failure comes
 * out as the `BatonError` of its error event (`nodeFailure`), after the attempts its retry config allows.
 */
export async function runChild(run: ChildRun): Promise<NodeContext> {
  const { parent, node } = run;
  const name = run.name ?? node.name;
  const path = run.path ?? childPath(parent.nodePath, name);
  const runId = run.runId ?? "1";
  const branch = run.branch ?? (run.useSubBranch ? subBranch(parent.branch, name, runId) : parent.branch);
  const declared = node.isolationScope === true ? `${path}@${runId}` : node.isolationScope;
  const scope = run.isolationScope ?? declared ?? parent.isolationScope;
  const { recorder, services } = parent.invocation;
  const attributes: SpanAttributes = recorder.recording
    ? { "baton.node.path": path, "baton.node.run_id": runId }
    : NO_ATTRIBUTES;
  const span = recorder.start(`execute_node ${name}`, attributes, parent.invocation.span);
  const signals: SignalSource<AbortSignal> = run.stop ?? parent.invocation.runConfig;
  try {
    for (let attempt = 1; ; attempt++) {
      const deadline = node.timeout === undefined ? undefined : new LazyAbort(signals);
      if (deadline) deadline.timeout = node.timeout;
      const child = new NodeContext(parent.invocation.forNode(branch, deadline ?? signals, span, scope), {
        channel: parent.channel,
        nodePath: path,
        runId,
        resumeInputs: run.resumeInputs ?? parent.resumeInputs,
        isolationScope: scope,
        spawn: parent.spawn,
      });
      child.attemptCount = attempt;
      child.resumed = run.resumed === true && attempt === 1;
      if (run.useAsOutput)
        child.outputForAncestors = [parent.nodePath, ...parent.outputForAncestors].filter((p) => p !== "");
      try {
        const stops = [...(run.stop ? [run.stop] : []), ...(deadline ? [deadline] : [])];
        child.stops = stops;
        const recorded = await runAttempt(child, node, run.input, stops);
        if (
          child.reportedError &&
          child.output === undefined &&
          child.route === undefined &&
          child.interruptIds.length === 0
        )
          throw new ReportedFailure(
            `Node '${name}' failed: ${child.reportedError.errorMessage ?? child.reportedError.errorCode}`,
          );
        if (child.interruptIds.length > 0 && !recorded) await recordInput(child, name, run.input);
        return finish(run, child, span);
      } catch (error) {
        if (error instanceof NodeInterrupted) return finish(run, child, span);
        if (isControl(error)) throw error;
        if (!node.retryConfig || !shouldRetry(node.retryConfig, attempt, error))
          throw nodeFailure(error, name, path);
        services.log(`Node ${path} failed (attempt ${attempt}), retrying: ${String(error)}`);
        await services.sleep(retryDelaySeconds(node.retryConfig, attempt, services.random) * 1000);
      }
    }
  } catch (error) {
    span.end({}, error);
    throw error;
  }
}

function finish(run: ChildRun, child: NodeContext, span: { end(): void }): NodeContext {
  span.end();
  if (run.useAsOutput) {
    run.parent.output = child.output;
    run.parent.route = child.route;
    run.parent.outputDelegated = true;
  }
  return child;
}

/** A node that paused without an event of its own saying so: one that records its input and interrupts. */
async function recordInput(child: NodeContext, name: string, input: unknown): Promise<void> {
  const event = child.newEvent({
    author: name,
    longRunningToolIds: [...child.interruptIds],
    actions: { agentState: { input } },
  });
  await child.channel.push({ ...event, nodeInfo: { path: child.nodePath } });
}
