import { BaseAgent, type BaseAgentConfig } from "../agents/base-agent.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { SHARED_SCOPES, type SharedScope, unionScopes } from "../core/state.js";
import { DynamicScheduler } from "./dynamic-scheduler.js";
import { type EdgeItem, type Graph, graphOf } from "./graph.js";
import { workflowDot } from "./graph-dot.js";
import { agentOf, type GraphNodeInfo, graphInfo } from "./graph-info.js";
import { GraphRun } from "./graph-loop.js";
import { NODE, type WorkflowNode } from "./node.js";
import type { NodeContext } from "./node-context.js";
import { eventsForCurrentRun, resolvedResponses } from "./rehydration.js";
import type { RetryConfig } from "./retry.js";
import { checkRetryConfig } from "./retry.js";
import { runAsInvocation } from "./run-as-invocation.js";
import { LazyAbort } from "./signals.js";

/** An imperative workflow: it drives `ctx.runNode(...)` and returns the workflow's output (ADK `dynamicEntry`). */
export type DynamicEntry = (ctx: NodeContext, input: unknown) => unknown;

export interface WorkflowConfig extends Omit<BaseAgentConfig, "subAgents"> {
  /** The graph: edges and chains (`["START", a, { yes: b, no: c }]`). Exactly one of `edges` and `dynamicEntry`. */
  edges?: readonly EdgeItem[];
  dynamicEntry?: DynamicEntry;
  /** The most graph nodes that run at once; unlimited by default (`ctx.runNode` children are not counted). */
  maxConcurrency?: number;
  /** As a node of another workflow: run again on resume (default `true`), retries, a timeout in seconds. */
  rerunOnResume?: boolean;
  retryConfig?: RetryConfig;
  timeout?: number;
  isolationScope?: string | true;
}

/**
 * ADK 2.x's `Workflow`: a graph of nodes (functions, agents, tools, joins, workflows) or a dynamic entry
 * that runs nodes itself. It is an agent (an app's root, a sub-agent, a node of another workflow) whose
 * events carry `nodeInfo.path` and the nodes' `output`. Each node's events are stored as they come, so a
 * resumed turn hands back finished nodes from the log and runs only what is left (decision 049).
 * @example
 * const triage = new Workflow({ name: "triage", edges: [["START", classify, { question: answer, other: log }]] });
 * defineApp({ name: "support", rootAgent: triage });
 */
export class Workflow extends BaseAgent implements WorkflowNode {
  readonly [NODE] = true as const;
  readonly kind = "workflow";
  readonly transferPolicy = undefined;
  readonly graph: Graph | undefined;
  readonly dynamicEntry: DynamicEntry | undefined;
  readonly maxConcurrency: number | undefined;
  readonly rerunOnResume: boolean;
  readonly waitForOutput = false;
  readonly retryConfig: RetryConfig | undefined;
  readonly timeout: number | undefined;
  readonly idempotent = true;
  readonly isolationScope: string | true | undefined;
  readonly requiresAllPredecessors = false;

  constructor(config: WorkflowConfig) {
    super(config);
    const hasEdges = (config.edges?.length ?? 0) > 0;
    if (hasEdges === (config.dynamicEntry !== undefined))
      throw new BatonError(
        "invalid_config",
        `Workflow "${config.name}" takes either "edges" or "dynamicEntry", exactly one.`,
      );
    const max = config.maxConcurrency;
    if (max !== undefined && (!Number.isInteger(max) || max < 1))
      throw new BatonError(
        "invalid_config",
        `Workflow "${config.name}": maxConcurrency must be a positive integer.`,
      );
    if (config.timeout !== undefined && !(config.timeout > 0))
      throw new BatonError(
        "invalid_config",
        `Workflow "${config.name}": timeout must be a positive number of seconds.`,
      );
    this.graph = hasEdges ? graphOf(config.edges ?? []) : undefined;
    this.dynamicEntry = config.dynamicEntry;
    this.maxConcurrency = max;
    this.rerunOnResume = config.rerunOnResume ?? true;
    this.retryConfig = config.retryConfig && checkRetryConfig(config.name, config.retryConfig);
    this.timeout = config.timeout;
    this.isolationScope = config.isolationScope;
  }

  /** Its callbacks', and its nodes' (a dynamic entry may run anything: both). */
  override sharedScopes(): readonly SharedScope[] {
    if (!this.graph) return SHARED_SCOPES;
    return unionScopes(this.callbackScopes(), ...this.graph.nodes.map((n) => n.sharedScopes()));
  }

  /** As a node of another workflow: the graph (or entry) runs under `ctx`; its children send the events. */
  async *run(ctx: NodeContext, input: unknown): AsyncGenerator<Event> {
    const stop = new LazyAbort(ctx.invocation.runConfig);
    for (const outer of ctx.stops) outer.whenStopped.catch((reason: unknown) => stop.stop(reason));
    const events = eventsForCurrentRun(ctx.session.events, ctx.invocation.invocationId);
    for (const [id, answer] of resolvedResponses(events)) ctx.resumeInputs[id] = answer;
    const scheduler = new DynamicScheduler(events, stop);
    ctx.spawn = scheduler.spawn;
    if (this.graph) {
      const waiting = await new GraphRun(this.graph, ctx, stop, events, this.maxConcurrency).run(input);
      for (const id of waiting) if (!ctx.interruptIds.includes(id)) ctx.interruptIds.push(id);
    } else if (this.dynamicEntry) {
      const output = await this.dynamicEntry(ctx, input);
      if (ctx.interruptIds.length === 0 && output !== undefined) ctx.output = output;
    }
    yield* [];
  }

  /** For ADK's dev UI (`build_graph`): this workflow and its graph, its agents as `describe` gives them. */
  graphInfo(describe: (agent: BaseAgent) => GraphNodeInfo): GraphNodeInfo {
    return graphInfo(this, describe);
  }

  /** For ADK's dev UI (`build_graph_image`): the graph as DOT, drawn as adk-devtools 2.0 draws it, `lit` lit. */
  graphDot(
    describe: (agent: BaseAgent) => GraphNodeInfo,
    options: { darkMode?: boolean; lit?: readonly [from: string, to: string] } = {},
  ): string {
    return workflowDot(graphInfo(this, describe), options);
  }

  /** The graph's nodes, each with the agent behind it if any (what the dev UI navigates into). */
  graphChildren(): { name: string; agent: BaseAgent | undefined }[] {
    return (this.graph?.nodes ?? []).map((node) => ({ name: node.name, agent: agentOf(node) }));
  }

  /** As an agent: one invocation of the workflow (ADK `runNodeAsInvocation`). */
  protected runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    return runAsInvocation(this, ctx);
  }
}
