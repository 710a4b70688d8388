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

/** What a tool sees: a callback context plus its function-call id and the actions of its response. */
export class ToolContext extends CallbackContext {
  readonly actions: Pick<EventActions, "transferToAgent" | "escalate" | "skipSummarization"> = {};

  constructor(
    invocation: InvocationContext,
    readonly functionCallId: string,
  ) {
    super(invocation);
  }
}
