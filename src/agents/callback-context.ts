import type { EventActions } from "../core/event.js";
import type { InvocationContext } from "./invocation-context.js";
import { State } from "./state.js";

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
}

/** ADK `ToolConfirmation`: a question to the user about one tool call, and later the user's answer. */
export interface ToolConfirmation {
  hint: string;
  confirmed: boolean;
  payload?: unknown;
}

/** What a tool sees: a callback context plus its function-call id and the actions of its response. */
export class ToolContext extends CallbackContext {
  readonly actions: Pick<EventActions, "transferToAgent" | "escalate" | "skipSummarization"> & {
    requestedToolConfirmations?: Record<string, ToolConfirmation>;
  } = {};

  /**
   * @param toolConfirmation the user's answer, when this call runs again after a confirmation request
   */
  constructor(
    invocation: InvocationContext,
    readonly functionCallId: string,
    readonly toolConfirmation?: ToolConfirmation,
  ) {
    super(invocation);
  }

  /** Asks the user to approve this call (ADK `request_confirmation`); the turn pauses until they answer. */
  requestConfirmation(hint: string, payload?: unknown): void {
    const request: ToolConfirmation = {
      hint,
      confirmed: false,
      ...(payload === undefined ? {} : { payload }),
    };
    this.actions.requestedToolConfirmations = {
      ...this.actions.requestedToolConfirmations,
      [this.functionCallId]: request,
    };
  }
}
