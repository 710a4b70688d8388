import type { Content } from "../core/content.js";
import { createEvent, type Event, type NewEvent } from "../core/event.js";
import type { Clock, IdSource } from "../core/ids.js";
import type { Session } from "../core/session.js";
import type { ModelEnv } from "../models/resolve-model.js";
import type { BaseAgent } from "./base-agent.js";
import type { RunPlugin } from "./plugins.js";

/** Everything an invocation needs from the outside world; tests pass fakes. */
export interface RunServices {
  clock: Clock;
  ids: IdSource;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Provider keys and bindings (`AI`) for `provider:model` strings. */
  modelEnv: ModelEnv;
  log: (message: string) => void;
  /** Runner-wide plugins (ADK `plugins`): their hooks run before every agent's own callbacks. */
  plugins?: readonly RunPlugin[];
}

export interface RunConfig {
  streaming: boolean;
  /** ADK `max_llm_calls`: model calls allowed per invocation; 0 or less disables the limit. */
  maxLlmCalls: number;
  signal?: AbortSignal;
}

/**
 * One invocation (one `runner.run` call). The runner appends each non-partial event to `session`
 * before the agent resumes, so agents read their own events back from it.
 */
export class InvocationContext {
  /** Shared by every agent of the invocation (ADK's counter lives on the invocation). */
  private readonly llmCalls: { count: number };
  /** ADK's `end_invocation`, per agent (a shallow copy per agent). */
  endInvocation = false;

  constructor(
    readonly invocationId: string,
    readonly session: Session,
    readonly rootAgent: BaseAgent,
    readonly agent: BaseAgent,
    readonly userContent: Content,
    readonly runConfig: RunConfig,
    readonly services: RunServices,
    readonly branch?: string,
    llmCalls?: { count: number },
  ) {
    this.llmCalls = llmCalls ?? { count: 0 };
  }

  /** The context an agent runs in: same invocation, same session, its own `endInvocation` flag. */
  forAgent(agent: BaseAgent): InvocationContext {
    return new InvocationContext(
      this.invocationId,
      this.session,
      this.rootAgent,
      agent,
      this.userContent,
      this.runConfig,
      this.services,
      this.branch,
      this.llmCalls,
    );
  }

  /**
   * The same invocation on another branch: what a ParallelAgent gives each sub-agent, so their
   * histories stay apart (ADK `branch`, `parent.child`).
   */
  onBranch(branch: string): InvocationContext {
    return new InvocationContext(
      this.invocationId,
      this.session,
      this.rootAgent,
      this.agent,
      this.userContent,
      this.runConfig,
      this.services,
      branch,
      this.llmCalls,
    );
  }

  /** A new event of this invocation, authored by its agent, on its branch. */
  newEvent(fields: Omit<NewEvent, "invocationId" | "author" | "branch">): Event {
    const branch = this.branch === undefined ? {} : { branch: this.branch };
    return createEvent(
      { invocationId: this.invocationId, author: this.agent.name, ...branch, ...fields },
      this.services,
    );
  }

  get events(): readonly Event[] {
    return this.session.events;
  }

  /** Counts one model call; `false` when the invocation's limit is already spent. */
  takeLlmCall(): boolean {
    const limit = this.runConfig.maxLlmCalls;
    this.llmCalls.count += 1;
    return limit <= 0 || this.llmCalls.count <= limit;
  }
}
