import type { Content } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import { createEvent, type Event, type NewEvent } from "../core/event.js";
import type { RunServices } from "../core/ports.js";
import type { Session } from "../core/session.js";
import { type SignalSource, withLazySignal } from "../core/signal-source.js";
import { NO_TRACE, type OpenSpan, type SpanRecorder } from "../core/trace.js";
import type { BaseAgent } from "./base-agent.js";
import type { RunPlugin } from "./plugins.js";
import { TurnResources } from "./turn-resources.js";

export interface RunConfig {
  streaming: boolean;
  /** ADK `max_llm_calls`: model calls allowed per invocation; 0 or less disables the limit. */
  maxLlmCalls: number;
  signal?: AbortSignal;
  /** The app's plugins (ADK `App.plugins`): their hooks run before every agent's own callbacks. */
  plugins?: readonly RunPlugin[];
}

/** What an invocation is made of; the runner builds it once per `run`. */
export interface InvocationOptions {
  invocationId: string;
  /** The session as of the user event; the runner appends each stored event to it. */
  session: Session;
  rootAgent: BaseAgent;
  /** The agent this context belongs to. */
  agent: BaseAgent;
  userContent: Content;
  runConfig: RunConfig;
  services: RunServices;
  branch?: string;
  /** What the invocation holds open; a new set unless given (a detached run shares its caller's). */
  resources?: TurnResources;
  /** The conversation scope a workflow node runs its agents in (ADK 2.x `isolation_scope`). */
  isolationScope?: string;
}

/**
 * One invocation (one `runner.run` call). The runner appends each non-partial event to `session`
 * before the agent resumes, so agents read their own events back from it.
 */
export class InvocationContext {
  readonly invocationId: string;
  readonly session: Session;
  readonly rootAgent: BaseAgent;
  readonly agent: BaseAgent;
  readonly userContent: Content;
  readonly runConfig: RunConfig;
  readonly services: RunServices;
  readonly branch: string | undefined;
  readonly isolationScope: string | undefined;
  /** Shared by every agent of the invocation (ADK's counter lives on the invocation). */
  private llmCalls = { count: 0 };
  /** ADK's `end_invocation`, per agent (a shallow copy per agent). */
  endInvocation = false;
  /** Where the invocation's spans go (the runner's recorder); shared by every agent of the invocation. */
  recorder: SpanRecorder = NO_TRACE;
  /** The span of the agent run this context belongs to: the parent of its model and tool spans. */
  span: OpenSpan | undefined;
  /** What the invocation holds open (connections to MCP servers): shared by its agents, closed at its end. */
  readonly resources: TurnResources;
  private readonly options: InvocationOptions;

  constructor(options: InvocationOptions) {
    this.resources = options.resources ?? new TurnResources();
    this.options = { ...options, resources: this.resources };
    this.invocationId = options.invocationId;
    this.session = options.session;
    this.rootAgent = options.rootAgent;
    this.agent = options.agent;
    this.userContent = options.userContent;
    this.runConfig = options.runConfig;
    this.services = options.services;
    this.branch = options.branch;
    this.isolationScope = options.isolationScope;
  }

  /** The context an agent runs in: same invocation, same session, its own `endInvocation` flag. */
  forAgent(agent: BaseAgent): InvocationContext {
    const child = new InvocationContext({ ...this.options, agent });
    child.llmCalls = this.llmCalls;
    child.recorder = this.recorder;
    child.span = this.span;
    return child;
  }

  /**
   * The same invocation on another branch: what a ParallelAgent gives each sub-agent, so their
   * histories stay apart (ADK `branch`, `parent.child`).
   */
  onBranch(branch: string): InvocationContext {
    const child = new InvocationContext({ ...this.options, agent: this.agent, branch });
    child.llmCalls = this.llmCalls;
    child.recorder = this.recorder;
    child.span = this.span;
    return child;
  }

  /**
   * The same invocation for a workflow node: its branch (`undefined`: none), its span, its isolation scope
   * (`undefined`: none), and an abort signal read from `signals` only when something asks for it (the
   * node's timeout, its workflow stopping).
   */
  forNode(
    branch: string | undefined,
    signals: SignalSource<AbortSignal>,
    span: OpenSpan | undefined,
    isolationScope?: string,
  ): InvocationContext {
    // Field by field: a spread of the run config would read (and so make) the turn's lazy signal.
    const { streaming, maxLlmCalls, plugins } = this.runConfig;
    const runConfig = withLazySignal(
      { streaming, maxLlmCalls, ...(plugins ? { plugins } : {}) },
      "signal",
      signals,
    );
    const { branch: _parentBranch, isolationScope: _parentScope, ...options } = this.options;
    const child = new InvocationContext({
      ...options,
      runConfig,
      ...(branch === undefined ? {} : { branch }),
      ...(isolationScope === undefined ? {} : { isolationScope }),
    });
    child.llmCalls = this.llmCalls;
    child.recorder = this.recorder;
    child.span = span;
    return child;
  }

  /** A new event of this invocation, authored by its agent, on its branch (and in its scope). */
  newEvent(fields: Omit<NewEvent, "invocationId" | "author" | "branch">): Event {
    const branch = this.branch === undefined ? {} : { branch: this.branch };
    const scope = this.isolationScope === undefined ? {} : { isolationScope: this.isolationScope };
    return createEvent(
      { invocationId: this.invocationId, author: this.agent.name, ...branch, ...scope, ...fields },
      this.services,
    );
  }

  /** The session's stored events, oldest first, including those of this invocation so far. */
  get events(): readonly Event[] {
    return this.session.events;
  }

  /** Counts one model call; `false` when the invocation's limit is already spent. */
  takeLlmCall(): boolean {
    const limit = this.runConfig.maxLlmCalls;
    this.llmCalls.count += 1;
    return limit <= 0 || this.llmCalls.count <= limit;
  }

  /** What a model call past the limit fails with (ADK `LlmCallsLimitExceededError`). */
  llmCallsLimitError(): BatonError {
    return new BatonError(
      "LLM_CALLS_LIMIT_EXCEEDED",
      `The limit of ${this.runConfig.maxLlmCalls} model calls per invocation was reached.`,
    );
  }
}
