import type * as z from "zod";
import type { Event } from "../core/event.js";
import type { SharedScope } from "../core/state.js";
import type { NodeContext } from "./node-context.js";
import type { RetryConfig } from "./retry.js";

/** The key that marks workflow nodes (a `FunctionTool` and a routing map are plain objects too). */
export const NODE = "baton.workflowNode";

/** What a node is, as the dev UI draws it (ADK's `type` in `build_graph`). */
export type NodeKind = "function" | "agent" | "tool" | "join" | "workflow" | "node";

/** The settings every node takes (ADK 2.x `BaseNode` fields, camelCase), plus Baton's `idempotent`. */
export interface NodeSettings {
  description?: string;
  /** Run again when the workflow resumes after an interrupt, even if it finished before. Default `false`. */
  rerunOnResume?: boolean;
  /** The node counts as finished only once it produced an output (or route); else it waits. Default `false`. */
  waitForOutput?: boolean;
  /** Retries of a failed attempt (ADK `RetryConfig`, delays in seconds). None by default. */
  retryConfig?: RetryConfig;
  /** Seconds one attempt may take; past it the attempt fails with `NODE_TIMEOUT`. */
  timeout?: number;
  /**
   * Running the node twice has the effect of running it once. A turn resumed after a crash runs a node that
   * was cut off again only when it is idempotent; any other such node fails with `NODE_INTERRUPTED` and is
   * never run twice, as Baton's tools (decision 028). Default `false` (agents, joins and workflows: `true`).
   */
  idempotent?: boolean;
  /** Runs the node's agents in a conversation of their own: `true` one per run, a string one shared by name. */
  isolationScope?: string | true;
  /** Checks the node's input (zod); a mismatch fails the node. */
  inputSchema?: z.ZodType;
  /** Checks the node's output (zod); a mismatch fails the node. */
  outputSchema?: z.ZodType;
  /** The shared state scopes (`app:`, `user:`) the node's own code may touch; left out, both. */
  stateScopes?: readonly SharedScope[];
}

/** One step of a workflow: a function, an agent, a tool, a join, or a nested workflow. */
export interface WorkflowNode {
  readonly [NODE]: true;
  readonly name: string;
  readonly description: string;
  readonly kind: NodeKind;
  readonly rerunOnResume: boolean;
  readonly waitForOutput: boolean;
  readonly retryConfig: RetryConfig | undefined;
  readonly timeout: number | undefined;
  readonly idempotent: boolean;
  readonly isolationScope: string | true | undefined;
  /** A join: runs once every predecessor finished, with their outputs by name. */
  readonly requiresAllPredecessors: boolean;
  /** The shared state scopes the node may touch (what a turn must read). */
  sharedScopes(): readonly SharedScope[];
  /** Runs the node once, yielding its events (each with `output`, `actions.route`, … as it decides). */
  run(ctx: NodeContext, input: unknown): AsyncGenerator<Event>;
}

export const isWorkflowNode = (value: unknown): value is WorkflowNode =>
  typeof value === "object" && value !== null && NODE in value;

/** A node's result, as `ctx.runNode` gives it: a finished run's output and route, or what it waits for. */
export interface NodeResult {
  output: unknown;
  route?: Event["actions"]["route"];
  branch?: string | undefined;
  /** The interrupts the node waits on; empty when it finished. */
  interruptIds: string[];
}

/** How `ctx.runNode` runs a child (ADK `RunNodeOptions`). */
export interface RunNodeOptions {
  /** The run's node name, when it differs from the node's own. */
  name?: string;
  /** A run id of your own (not all digits); by default runs are numbered "1", "2", … per name. */
  runId?: string;
  /** The child's output is this node's output too. */
  useAsOutput?: boolean;
  /** The child runs on a branch of its own (`<branch>.<name>@<runId>`): its agents see only their branch. */
  useSubBranch?: boolean;
}
