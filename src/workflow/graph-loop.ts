import { BatonError } from "../core/errors.js";
import type { Event, Route } from "../core/event.js";
import { WorkflowStopped } from "./failures.js";
import type { Graph } from "./graph.js";
import type { NodeResult, WorkflowNode } from "./node.js";
import type { NodeContext } from "./node-context.js";
import { commonBranch } from "./node-path.js";
import { runChild } from "./node-runner.js";
import { childRuns, isClosed, isFinished, type PriorRun } from "./rehydration.js";
import { interruptedNode, markRunning } from "./running-mark.js";
import type { LazyAbort } from "./signals.js";

interface Trigger {
  input: unknown;
  useSubBranch: boolean;
  branch?: string | undefined;
}

interface NodeState {
  status: "running" | "waiting" | "completed" | "failed";
  runCounter: number;
  interrupts: string[];
}

type Completion = { name: string; result: NodeResult } | { name: string; error: unknown };

/**
 * One run of a static graph (ADK 2.x `Workflow` orchestration): START's targets get the workflow's input;
 * ready nodes start (at most `maxConcurrency` at once), and each finished node triggers the nodes its edges
 * and route lead to (a join once all its predecessors finished, with their outputs by name; several
 * targets each on a branch of its own). Nodes a resumed run finished before are handed back from the
 * stored events without running. Ends with the terminal node's output on `ctx.output`, or the interrupts it
 * waits on on `ctx.interruptIds`; the first failure stops the others and is thrown.
 */
export class GraphRun {
  private readonly triggers = new Map<string, Trigger[]>();
  private readonly states = new Map<string, NodeState>();
  private readonly outputs = new Map<string, unknown>();
  private readonly branches = new Map<string, string>();
  private readonly pending = new Map<string, Promise<Completion>>();
  private readonly activated = new Set<string>();
  private readonly prior: Map<string, PriorRun[]>;

  constructor(
    private readonly graph: Graph,
    private readonly ctx: NodeContext,
    private readonly stop: LazyAbort,
    events: readonly Event[],
    private readonly maxConcurrency: number | undefined,
  ) {
    this.prior = childRuns(events, ctx.nodePath);
  }

  async run(input: unknown): Promise<string[]> {
    const starts = this.graph.starts;
    for (const start of starts) this.push(start.name, { input, useSubBranch: starts.length > 1 });
    for (;;) {
      this.scheduleReady();
      if (this.pending.size === 0) break;
      const done = await Promise.race(this.pending.values());
      this.pending.delete(done.name);
      if ("error" in done) {
        this.setStatus(done.name, "failed");
        this.stop.stop(new WorkflowStopped(`Node ${done.name} failed.`));
        await Promise.allSettled(this.pending.values());
        throw done.error;
      }
      this.complete(done.name, done.result);
    }
    const waiting = [...this.states.values()].flatMap((s) => (s.status === "waiting" ? s.interrupts : []));
    if (waiting.length > 0) return waiting;
    const terminal = [...this.graph.terminalNames].filter((n) => this.outputs.has(n));
    if (terminal.length > 1)
      throw new BatonError(
        "NODE_ERROR",
        `Workflow ${this.ctx.nodeName}: ${terminal.length} terminal nodes produced an output (${terminal.join(", ")}); a workflow has at most one.`,
        { agentName: this.ctx.nodeName },
      );
    const [last] = terminal;
    if (last !== undefined) this.ctx.output = this.outputs.get(last);
    return [];
  }

  private scheduleReady(): void {
    for (const name of [...this.triggers.keys()]) {
      if (this.pending.has(name)) continue;
      const state = this.states.get(name);
      if (state?.status === "running" || (state?.status === "waiting" && state.interrupts.length > 0))
        continue;
      if (this.maxConcurrency !== undefined && this.pending.size >= this.maxConcurrency) break;
      const trigger = this.triggers.get(name)?.shift();
      if (this.triggers.get(name)?.length === 0) this.triggers.delete(name);
      if (!trigger) continue;
      const next: NodeState = { status: "running", runCounter: state?.runCounter ?? 0, interrupts: [] };
      this.states.set(name, next);
      this.pending.set(name, this.start(this.graph.node(name), trigger, next));
    }
  }

  /** A node's run: handed back when a resumed run finished it before, else run (marked first if not idempotent). */
  private async start(node: WorkflowNode, trigger: Trigger, state: NodeState): Promise<Completion> {
    const { name } = node;
    const { ctx } = this;
    const repeat = this.activated.has(name);
    this.activated.add(name);
    const before = this.prior.get(name)?.shift();
    const branch = before?.branch ?? ctx.branch;
    if (before && isFinished(before))
      return { name, result: { output: before.output, route: before.route, branch, interruptIds: [] } };
    if (before && !node.rerunOnResume && before.output === undefined && before.interruptIds.size > 0) {
      const answers = [...before.interruptIds].map((id) => ctx.resumeInputs[id]);
      if (answers.every((a) => a !== undefined))
        return {
          name,
          result: { output: answers.length === 1 ? answers[0] : answers, branch, interruptIds: [] },
        };
    }
    const cutOff =
      before !== undefined && !isClosed(before) && before.invocationId === ctx.invocation.invocationId;
    state.runCounter += 1;
    const runId = String(state.runCounter);
    try {
      if (cutOff && !node.idempotent) throw interruptedNode(ctx, node, name);
      if (!node.idempotent) await markRunning(ctx, name, runId, trigger.branch);
      const resuming = before !== undefined && before.interruptIds.size > 0 && before.hasInput;
      const result = await runChild({
        parent: ctx,
        node,
        input: resuming ? before.input : trigger.input,
        runId,
        useSubBranch: trigger.useSubBranch,
        branch: trigger.branch,
        stop: this.stop,
        resumeInputs: repeat ? {} : undefined,
        resumed: cutOff || resuming,
      });
      return { name, result };
    } catch (error) {
      return { name, error };
    }
  }

  private complete(name: string, result: NodeResult): void {
    const node = this.graph.node(name);
    if (result.interruptIds.length > 0) {
      this.setStatus(name, "waiting", [...result.interruptIds]);
      return;
    }
    if (node.waitForOutput && result.output === undefined && result.route === undefined) {
      this.setStatus(name, "waiting");
      return;
    }
    this.setStatus(name, "completed");
    if (result.output !== undefined) this.outputs.set(name, result.output);
    this.branches.set(name, result.branch ?? "");
    this.triggerNext(name, result.output, result.route, result.branch);
  }

  private triggerNext(
    name: string,
    output: unknown,
    route: Route | undefined,
    branch: string | undefined,
  ): void {
    const next = this.graph.next(name, route);
    for (const target of next) {
      if (!target.requiresAllPredecessors) {
        this.push(target.name, { input: output, useSubBranch: next.length > 1, branch });
        continue;
      }
      const predecessors = this.graph.predecessorsOf(target.name);
      if (!predecessors.every((p) => this.states.get(p)?.status === "completed")) continue;
      const input = Object.fromEntries(predecessors.map((p) => [p, this.outputs.get(p)]));
      const shared = commonBranch(predecessors.map((p) => this.branches.get(p) ?? ""));
      this.push(target.name, { input, useSubBranch: false, branch: shared === "" ? undefined : shared });
    }
  }

  private push(name: string, trigger: Trigger): void {
    const list = this.triggers.get(name);
    if (list) list.push(trigger);
    else this.triggers.set(name, [trigger]);
  }

  private setStatus(name: string, status: NodeState["status"], interrupts: string[] = []): void {
    const state = this.states.get(name);
    if (!state) return;
    state.status = status;
    state.interrupts = interrupts;
  }
}
