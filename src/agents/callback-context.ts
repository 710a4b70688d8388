import type { EventActions } from "../core/event.js";
import type { OpenSpan } from "../core/trace.js";
import type { InvocationContext } from "./invocation-context.js";
import { State } from "./state.js";
import type { ToolConfirmation } from "./tool-confirmation.js";

/** What callbacks see: the agent, the invocation, and state they may write (ADK `CallbackContext`). */
export class CallbackContext {
  readonly state: State;

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
