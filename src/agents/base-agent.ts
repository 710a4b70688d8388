import { asAgentError, BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { SHARED_SCOPES, type SharedScope } from "../core/state.js";
import { NO_ATTRIBUTES } from "../core/trace.js";
import type { AgentNode, TransferPolicy } from "../router/agent-node.js";
import { findAgent } from "../router/agent-tree.js";
import { CallbackContext } from "./callback-context.js";
import { type AgentCallback, firstResult, type OneOrMany } from "./callbacks.js";
import type { InvocationContext } from "./invocation-context.js";
import { agentSpanAttributes } from "./span-attributes.js";

export interface BaseAgentConfig {
  /** An identifier, unique in the tree, and never `user`. */
  name: string;
  /** What the agent is good at. Other agents read it to decide whether to transfer: it is routing input. */
  description?: string;
  subAgents?: readonly BaseAgent[];
  beforeAgent?: OneOrMany<AgentCallback>;
  afterAgent?: OneOrMany<AgentCallback>;
  /**
   * The shared state scopes (`app:`, `user:` keys) this agent's own code may read or write: its callbacks,
   * an instruction function, a custom body. Left out, that code may touch both. A turn reads a scope's
   * Durable Object only when some agent of the app may use it (docs/scaling.md).
   */
  stateScopes?: readonly SharedScope[];
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The base of every agent kind: identity, the tree, and ADK's before/after agent callbacks. */
export abstract class BaseAgent implements AgentNode<BaseAgent> {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly BaseAgent[];
  parentAgent: BaseAgent | undefined;
  abstract readonly transferPolicy: TransferPolicy | undefined;
  private readonly beforeAgent: OneOrMany<AgentCallback> | undefined;
  private readonly afterAgent: OneOrMany<AgentCallback> | undefined;
  private readonly declaredScopes: readonly SharedScope[] | undefined;

  constructor(config: BaseAgentConfig) {
    if (!IDENTIFIER.test(config.name) || config.name === "user") {
      throw new BatonError(
        "invalid_config",
        `Agent name "${config.name}" must be an identifier and must not be "user".`,
      );
    }
    this.name = config.name;
    this.description = config.description ?? "";
    this.subAgents = config.subAgents ?? [];
    this.beforeAgent = config.beforeAgent;
    this.afterAgent = config.afterAgent;
    this.declaredScopes = config.stateScopes;
    for (const sub of this.subAgents) {
      if (sub.parentAgent) {
        throw new BatonError(
          "invalid_config",
          `Agent "${sub.name}" already has parent "${sub.parentAgent.name}".`,
        );
      }
      sub.parentAgent = this;
    }
  }

  /** This agent or a descendant, by name. */
  findAgent(name: string): BaseAgent | undefined {
    return findAgent(this, name);
  }

  /**
   * Runs the agent: `beforeAgent`, the body, `afterAgent`. Any failure is re-thrown as a `BatonError`
   * whose `agentName` is the innermost agent that failed, so the error event is authored by the right agent.
   */
  async *runAsync(parent: InvocationContext): AsyncGenerator<Event> {
    const ctx = parent.forAgent(this);
    const attributes = ctx.recorder.recording ? agentSpanAttributes(ctx, this) : NO_ATTRIBUTES;
    ctx.span = ctx.recorder.start(`invoke_agent ${this.name}`, attributes, parent.span);
    try {
      // Without callbacks no generator is made for them: each one a turn's events pass costs microtasks.
      if (this.beforeAgent !== undefined) {
        const before = yield* this.runAgentCallback(ctx, this.beforeAgent);
        if (before === "ended") return;
      }
      yield* this.runImpl(ctx);
      if (!ctx.endInvocation && this.afterAgent !== undefined)
        yield* this.runAgentCallback(ctx, this.afterAgent);
    } catch (error) {
      ctx.span.end({}, error);
      throw asAgentError(error, this.name);
    } finally {
      ctx.span.end();
    }
  }

  /**
   * The shared scopes this agent itself may touch (its sub-agents answer for themselves). An agent kind
   * whose body Baton cannot see may touch both unless it declares `stateScopes`; the built-in kinds narrow it.
   */
  sharedScopes(): readonly SharedScope[] {
    return this.declaredScopes ?? SHARED_SCOPES;
  }

  /**
   * Whether this agent runs the body `impl` of a built-in kind, unchanged: a subclass that overrides
   * `runImpl` or `runAsync` may touch anything, so the built-in kinds narrow their scopes only when it holds.
   */
  protected runsBody(impl: unknown): boolean {
    return this.runImpl === impl && this.runAsync === BaseAgent.prototype.runAsync;
  }

  /** The scopes this agent's callbacks (the agent callbacks and `more`) may touch: declared, or both if it has any. */
  protected callbackScopes(...more: unknown[]): readonly SharedScope[] {
    if (this.declaredScopes) return this.declaredScopes;
    return [this.beforeAgent, this.afterAgent, ...more].some((c) => c !== undefined) ? SHARED_SCOPES : [];
  }

  protected abstract runImpl(ctx: InvocationContext): AsyncGenerator<Event>;

  /** Content from a callback ends the agent (ADK `end_invocation`); a state write alone emits a state event. */
  private async *runAgentCallback(
    ctx: InvocationContext,
    callbacks: OneOrMany<AgentCallback> | undefined,
  ): AsyncGenerator<Event, "ended" | "continue"> {
    if (callbacks === undefined) return "continue";
    const cbCtx = new CallbackContext(ctx);
    const content = await firstResult(callbacks, (cb) => cb(cbCtx));
    if (content === undefined && !cbCtx.hasDelta) return "continue";
    yield ctx.newEvent({
      ...(content === undefined ? {} : { content: { ...content, role: content.role ?? "model" } }),
      actions: { stateDelta: { ...cbCtx.state.delta }, artifactDelta: { ...cbCtx.artifactDelta } },
    });
    if (content === undefined) return "continue";
    ctx.endInvocation = true;
    return "ended";
  }
}
