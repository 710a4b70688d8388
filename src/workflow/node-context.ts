import { CallbackContext } from "../agents/callback-context.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import type { Event, NewEvent, Route } from "../core/event.js";
import type { EventChannel } from "./event-channel.js";
import type { NodeResult, RunNodeOptions } from "./node.js";
import type { NodeLike } from "./node-like.js";
import { leafName } from "./node-path.js";
import type { LazyAbort } from "./signals.js";

/** How a context runs a child node (the node runner, or a workflow's scheduler of `ctx.runNode` calls). */
export type SpawnNode = (
  parent: NodeContext,
  node: NodeLike,
  input: unknown,
  options: RunNodeOptions,
) => Promise<NodeResult>;

export interface NodeContextInit {
  channel: EventChannel;
  /** The node's path from the outermost workflow (`""` for the context a workflow runs in as an agent). */
  nodePath: string;
  runId: string;
  resumeInputs: Record<string, unknown>;
  isolationScope: string | undefined;
  spawn: SpawnNode;
}

/**
 * What a workflow node sees while it runs (ADK 2.x's node `Context`): the invocation, state it may write
 * (`ctx.state`, carried by the node's next event), its path and run id, `emit`, `runNode` for children, and
 * what the run produced so far (`output`, `route`, `interruptIds`). Artifacts and memory as in callbacks.
 */
export class NodeContext extends CallbackContext {
  readonly channel: EventChannel;
  readonly nodePath: string;
  readonly runId: string;
  readonly isolationScope: string | undefined;
  /** Answers to interrupts (by interrupt id) this run may resume with. */
  resumeInputs: Record<string, unknown>;
  /** The output the node produced (the last event's `output`). */
  output: unknown;
  /** The route the node emitted (`actions.route` of its events). */
  route: Route | undefined;
  /** The interrupts the node waits on (long-running calls, `RequestInput`). */
  interruptIds: string[] = [];
  /** Which attempt this is (1-based), when the node has a `retryConfig`. */
  attemptCount = 1;
  /**
   * This run goes on from an earlier one (cut off by a crash, or paused on an interrupt now answered): what
   * it stored before, its input included, is in the session.
   */
  resumed = false;
  /** Node paths this node's output is the output of too (`useAsOutput`), stamped on `nodeInfo.outputFor`. */
  outputForAncestors: readonly string[] = [];
  /** A child run with `useAsOutput` gave this node its output: its own copy of that event is not sent. */
  outputDelegated = false;
  /** A failure the node reported as an error event instead of throwing. */
  reportedError: { errorCode?: string | undefined; errorMessage?: string | undefined } | undefined;
  /** How `runNode` runs a child; a workflow sets its scheduler here for its subtree. */
  spawn: SpawnNode;
  /** What ends this attempt early: its workflow stopping, its timeout (a nested workflow stops with them). */
  stops: readonly LazyAbort[] = [];

  constructor(invocation: InvocationContext, init: NodeContextInit) {
    super(invocation);
    this.channel = init.channel;
    this.nodePath = init.nodePath;
    this.runId = init.runId;
    this.resumeInputs = init.resumeInputs;
    this.isolationScope = init.isolationScope;
    this.spawn = init.spawn;
  }

  /** The node's name (the last segment of its path). */
  get nodeName(): string {
    return leafName(this.nodePath);
  }

  get branch(): string | undefined {
    return this.invocation.branch;
  }

  get session() {
    return this.invocation.session;
  }

  /** A new event of this node: authored by it, on its branch and in its scope. */
  newEvent(fields: Omit<NewEvent, "invocationId" | "author" | "branch"> & { author?: string }): Event {
    const { author, ...rest } = fields;
    const event = this.invocation.newEvent(rest);
    return {
      ...event,
      author: author ?? this.nodeName,
      ...(this.isolationScope === undefined || event.isolationScope !== undefined
        ? {}
        : { isolationScope: this.isolationScope }),
    };
  }

  /** Sends an event out now, as it is; resolves once it is stored. */
  emit(event: Event): Promise<void> {
    return this.channel.push(event);
  }

  /**
   * Runs a child node (a function, an agent, a tool, a node) and resolves to its result. Inside a workflow,
   * runs are numbered per name and a resumed workflow hands back a finished run's output without running it
   * again; a child that waits on an interrupt ends this node too (it waits with it).
   */
  runNode(node: NodeLike, input?: unknown, options: RunNodeOptions = {}): Promise<NodeResult> {
    return this.spawn(this, node, input, options);
  }
}
