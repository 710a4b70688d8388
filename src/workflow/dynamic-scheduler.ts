import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { node as buildNode } from "./build-node.js";
import { NodeInterrupted } from "./failures.js";
import type { NodeResult, RunNodeOptions } from "./node.js";
import type { NodeContext } from "./node-context.js";
import type { NodeLike } from "./node-like.js";
import { childPath } from "./node-path.js";
import { runChild } from "./node-runner.js";
import { isClosed, isFinished, type PriorRun, runsByPath } from "./rehydration.js";
import { interruptedNode, markRunning } from "./running-mark.js";
import type { LazyAbort } from "./signals.js";

/**
 * Runs the `ctx.runNode` calls made inside one workflow (ADK 2.x `DynamicNodeScheduler`). Runs are numbered
 * per caller and name ("1", "2", …) and live at `<caller path>/<name>@<runId>`; a call for a path that
 * already ran in this run returns that result, and a resumed workflow hands back a run the stored events
 * show finished, without running it. A child that waits on an interrupt makes its caller wait too.
 */
export class DynamicScheduler {
  private readonly runs = new Map<string, Promise<NodeResult>>();
  private readonly counters = new WeakMap<NodeContext, Map<string, number>>();
  private prior: Map<string, PriorRun[]> | undefined;

  constructor(
    private readonly events: readonly Event[],
    private readonly stop: LazyAbort,
  ) {}

  readonly spawn = async (
    ctx: NodeContext,
    nodeLike: NodeLike,
    input: unknown,
    options: RunNodeOptions,
  ): Promise<NodeResult> => {
    const name = options.name ?? nameOf(nodeLike);
    const runId = this.runIdOf(ctx, name, options.runId);
    const path = childPath(ctx.nodePath, `${name}@${runId}`);
    let run = this.runs.get(path);
    if (!run) {
      run = this.begin(ctx, nodeLike, input, { name, runId, path, useSubBranch: options.useSubBranch });
      this.runs.set(path, run);
    }
    const result = await run;
    if (options.useAsOutput) {
      ctx.output = result.output;
      ctx.route = result.route;
    }
    if (result.interruptIds.length > 0) {
      for (const id of result.interruptIds) if (!ctx.interruptIds.includes(id)) ctx.interruptIds.push(id);
      throw new NodeInterrupted(`Node ${path} waits for the user.`);
    }
    return { output: result.output, route: result.route, branch: result.branch, interruptIds: [] };
  };

  /** A new path's run: handed back from the stored events when a resumed workflow finished it, else run. */
  private async begin(
    ctx: NodeContext,
    nodeLike: NodeLike,
    input: unknown,
    at: { name: string; runId: string; path: string; useSubBranch: boolean | undefined },
  ): Promise<NodeResult> {
    const node = buildNode(nodeLike);
    const { name, runId, path } = at;
    const before = this.priorRun(path);
    if (before && isFinished(before)) return handBack(before, ctx);
    if (before && !node.rerunOnResume && before.output === undefined && before.interruptIds.size > 0) {
      const answers = [...before.interruptIds].map((id) => ctx.resumeInputs[id]);
      if (answers.every((a) => a !== undefined))
        return { output: answers.length === 1 ? answers[0] : answers, branch: ctx.branch, interruptIds: [] };
    }
    const cutOff =
      before !== undefined && !isClosed(before) && before.invocationId === ctx.invocation.invocationId;
    if (cutOff && !node.idempotent) throw interruptedNode(ctx, node, name, `${name}@${runId}`);
    if (!node.idempotent) await markRunning(ctx, name, runId, undefined, `${name}@${runId}`);
    return runChild({
      parent: ctx,
      node,
      input,
      name,
      runId,
      path,
      useSubBranch: at.useSubBranch,
      stop: this.stop,
      resumed: cutOff,
    });
  }

  /** The run id of a call: the caller's own (never all digits, which automatic ids use), else the next number. */
  private runIdOf(ctx: NodeContext, name: string, given: string | undefined): string {
    if (given !== undefined) {
      if (given.trim() === "" || /^\d+$/.test(given) || /[/@]/.test(given))
        throw new BatonError(
          "NODE_ERROR",
          `Invalid runId '${given}' for node '${name}': give a non-empty id with a non-digit, without "/" or "@" (automatic runs are numbered "1", "2", …).`,
        );
      return given;
    }
    let counters = this.counters.get(ctx);
    if (!counters) {
      counters = new Map();
      this.counters.set(ctx, counters);
    }
    const next = (counters.get(name) ?? 0) + 1;
    counters.set(name, next);
    return String(next);
  }

  /** The stored runs at `path` of this workflow run, merged (read from the events once). */
  private priorRun(path: string): PriorRun | undefined {
    this.prior = this.prior ?? runsByPath(this.events);
    const runs = this.prior.get(path);
    if (!runs || runs.length === 0) return undefined;
    const merged: PriorRun = {
      hasInput: false,
      interruptIds: new Set(),
      resolved: new Map(),
      invocationId: "",
    };
    for (const r of runs) {
      if (r.output !== undefined) {
        merged.output = r.output;
        merged.branch = r.branch;
      }
      if (r.route !== undefined) merged.route = r.route;
      if (r.hasInput) {
        merged.input = r.input;
        merged.hasInput = true;
      }
      for (const id of r.interruptIds) merged.interruptIds.add(id);
      for (const [id, v] of r.resolved) merged.resolved.set(id, v);
      merged.invocationId = r.invocationId;
    }
    return merged;
  }
}

/** The name a node-like value runs under (a node's, an agent's, a tool's, or a function's own name). */
function nameOf(nodeLike: NodeLike): string {
  const name = typeof nodeLike === "function" ? nodeLike.name : nodeLike.name;
  if (!name)
    throw new BatonError("NODE_ERROR", "ctx.runNode(): the function has no name; give one with { name }.");
  return name;
}

const handBack = (run: PriorRun, ctx: NodeContext): NodeResult => ({
  output: run.output,
  route: run.route,
  branch: run.branch ?? ctx.branch,
  interruptIds: [],
});
