import type { ArtifactService } from "../core/artifacts.js";
import type { Part } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import type { EventActions } from "../core/event.js";
import type { SearchMemoryResponse } from "../core/memory.js";
import type { OpenSpan } from "../core/trace.js";
import type { InvocationContext } from "./invocation-context.js";
import { State } from "./state.js";
import type { ToolConfirmation } from "./tool-confirmation.js";

/** What callbacks see: the agent, the invocation, state they may write, and artifacts (ADK `CallbackContext`). */
export class CallbackContext {
  readonly state: State;
  /** The artifacts saved through this context, name → version: the `artifactDelta` of the event they belong to. */
  readonly artifactDelta: Record<string, number> = {};

  constructor(readonly invocation: InvocationContext) {
    this.state = new State(invocation.session.state);
  }

  get agentName(): string {
    return this.invocation.agent.name;
  }

  get invocationId(): string {
    return this.invocation.invocationId;
  }

  get userContent() {
    return this.invocation.userContent;
  }

  /**
   * Aborted when the turn is stopped (a cancel, an `interrupt`): pass it to `fetch` and other slow work so
   * a stopped turn stops at once.
   */
  get abortSignal(): AbortSignal | undefined {
    return this.invocation.runConfig.signal;
  }

  /** Whether this context changed anything an event must carry (state or artifacts). */
  get hasDelta(): boolean {
    return this.state.hasDelta || Object.keys(this.artifactDelta).length > 0;
  }

  /**
   * Saves a new version of an artifact of this session (of the user, for a `user:` name) and returns its
   * number; the event this context's work ends in records it in `actions.artifactDelta` (ADK `save_artifact`).
   */
  async saveArtifact(
    filename: string,
    artifact: Part,
    customMetadata?: Record<string, unknown>,
  ): Promise<number> {
    const version = await this.#artifacts().saveArtifact({
      ...this.#scope(),
      filename,
      artifact,
      ...(customMetadata === undefined ? {} : { customMetadata }),
    });
    this.artifactDelta[filename] = version;
    return version;
  }

  /** The artifact's latest version, or `version`; `undefined` when there is none (ADK `load_artifact`). */
  loadArtifact(filename: string, version?: number): Promise<Part | undefined> {
    return this.#artifacts().loadArtifact({ ...this.#scope(), filename, version });
  }

  /** The names of this session's artifacts and the user's `user:` ones, sorted (ADK `list_artifacts`). */
  listArtifacts(): Promise<string[]> {
    return this.#artifacts().listArtifactKeys(this.#scope());
  }

  /** The user's memories matching `query`, best first (ADK `search_memory`). */
  searchMemory(query: string): Promise<SearchMemoryResponse> {
    const memory = this.invocation.services.memory;
    // ADK raises the same when the runner has no memory service.
    if (!memory) throw new BatonError("invalid_config", "Memory service is not available (services.memory).");
    const { appName, userId } = this.invocation.session;
    return memory.searchMemory({ appName, userId, query });
  }

  #scope() {
    const { appName, userId, id } = this.invocation.session;
    return { appName, userId, sessionId: id };
  }

  #artifacts(): ArtifactService {
    const service = this.invocation.services.artifacts;
    if (service) return service;
    // ADK raises the same when the runner has no artifact service.
    throw new BatonError("invalid_config", "Artifact service is not initialized (services.artifacts).");
  }
}

/** What a tool sees: a callback context plus its function-call id and the actions of its response. */
export class ToolContext extends CallbackContext {
  readonly actions: Pick<EventActions, "transferToAgent" | "escalate" | "skipSummarization"> &
    Partial<Pick<EventActions, "requestedToolConfirmations">> = {};
  /** The call's `execute_tool` span: an agent the tool runs (AgentTool) records its spans under it. */
  span: OpenSpan | undefined;

  /**
   * @param toolConfirmation the user's answer when this call runs again after an `adk_request_confirmation`.
   */
  constructor(
    invocation: InvocationContext,
    readonly functionCallId: string,
    readonly toolConfirmation?: ToolConfirmation,
  ) {
    super(invocation);
  }

  /**
   * Asks the user to confirm this call (ADK `request_confirmation`): the agent emits a long-running
   * `adk_request_confirmation` call, and the call runs again with `toolConfirmation` set once answered.
   */
  requestConfirmation(request: { hint?: string; payload?: unknown } = {}): void {
    const confirmation: ToolConfirmation = { hint: request.hint ?? "", confirmed: false };
    if (request.payload !== undefined) confirmation.payload = request.payload;
    this.actions.requestedToolConfirmations = {
      ...this.actions.requestedToolConfirmations,
      [this.functionCallId]: confirmation,
    };
  }
}
