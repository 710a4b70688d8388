import type { Message, StreamResponse, Task, TaskStatus } from "@a2a-js/sdk";
import { TaskState } from "@a2a-js/sdk";
import { functionCallsOf } from "../../core/content.js";
import type { Event } from "../../core/event.js";
import type { Clock, IdSource } from "../../core/ids.js";
import type { TaskPayload, TaskPhase } from "../../core/task-store.js";
import { a2aPartsOf, agentMessage, agentText } from "./messages.js";
import { encodeTask } from "./task-json.js";
import { phaseOf } from "./task-states.js";

/**
 * An update to store (and send to followers), or one to send only (partial text while streaming), with
 * the task as it stands once the update is applied.
 */
export interface Step {
  update: StreamResponse;
  store: boolean;
  snapshot: TaskPayload;
  phase: TaskPhase;
}

/** Shown when an error event carries no message (ADK's own wording, ADK-SEMANTICS §6.3). */
export const DEFAULT_FAILURE_MESSAGE = "An error occurred during processing";

/**
 * Folds one task's Baton events into A2A updates, the mirror of ADK's `A2aAgentExecutor` (ADK-SEMANTICS
 * §6.3): a `working` update per event with content (partial text too, when streaming), the strongest state
 * seen (failed > input-required > working) kept aside, and at the end either the last message as an
 * artifact and `completed`, or the final state with its message. `task` is the snapshot after every step.
 */
export class TaskProjection {
  #failure: Message | undefined;
  #waiting: Message | undefined;
  #last: Message | undefined;

  constructor(
    public task: Task,
    private readonly services: { ids: IdSource; clock: Clock },
    private readonly metadata: Record<string, unknown>,
  ) {}

  /** The `working` update a turn begins with. */
  started(): Step {
    return this.#status(TaskState.TASK_STATE_WORKING, undefined, true);
  }

  /** The steps one runner event gives (none for events with nothing to show). */
  event(event: Event): Step[] {
    if (event.errorCode === "TURN_CANCELED") return [];
    const ids = this.#messageIds();
    const meta = {
      ...this.metadata,
      adk_author: event.author,
      adk_event_id: event.id,
      adk_invocation_id: event.invocationId,
    };
    if (event.errorCode !== undefined || event.errorMessage !== undefined) {
      const text = event.errorMessage ?? DEFAULT_FAILURE_MESSAGE;
      this.#failure = agentText(ids, text, { ...meta, adk_error_code: event.errorCode ?? "" });
      return [];
    }
    const parts = a2aPartsOf(event.content);
    if (parts.length === 0) return [];
    const message = agentMessage(ids, parts, { ...meta, ...(event.partial ? { adk_partial: true } : {}) });
    if (event.partial) return [this.#status(TaskState.TASK_STATE_WORKING, message, false)];
    this.#last = message;
    const longRunning = new Set(event.longRunningToolIds ?? []);
    if (functionCallsOf(event.content).some((call) => call.id !== undefined && longRunning.has(call.id)))
      this.#waiting = message;
    this.task.history.push(message);
    return [this.#status(TaskState.TASK_STATE_WORKING, message, true)];
  }

  /** The closing steps: `failed`, `input-required`, or the answer as an artifact then `completed`. */
  finish(): Step[] {
    if (this.#failure) return [this.#status(TaskState.TASK_STATE_FAILED, this.#failure, true)];
    if (this.#waiting) return [this.#status(TaskState.TASK_STATE_INPUT_REQUIRED, this.#waiting, true)];
    const steps: Step[] = [];
    if (this.#last) {
      const artifact = {
        artifactId: this.services.ids.uuid(),
        name: "answer",
        description: "",
        parts: this.#last.parts,
        metadata: this.#last.metadata,
        extensions: [],
      };
      this.task.artifacts.push(artifact);
      const { id: taskId, contextId } = this.task;
      const value = { taskId, contextId, artifact, append: false, lastChunk: true, metadata: this.metadata };
      steps.push({ update: { payload: { $case: "artifactUpdate", value } }, store: true, ...this.#now() });
    }
    return [...steps, this.#status(TaskState.TASK_STATE_COMPLETED, undefined, true)];
  }

  /**
   * A turn stopped by its session (an HTTP cancel, a newer message's `interrupt`), not by the task's own
   * `tasks/cancel`: `canceled`, with the stop's message.
   */
  stopped(message: string): Step {
    return this.#status(
      TaskState.TASK_STATE_CANCELED,
      agentText(this.#messageIds(), message, this.metadata),
      true,
    );
  }

  /** A turn that ended without its events (the store refused or the runner broke): `failed`. */
  broken(message: string): Step {
    return this.#status(
      TaskState.TASK_STATE_FAILED,
      agentText(this.#messageIds(), message, this.metadata),
      true,
    );
  }

  #status(state: TaskState, message: Message | undefined, store: boolean): Step {
    const status: TaskStatus = {
      state,
      message,
      timestamp: new Date(this.services.clock.now()).toISOString(),
    };
    if (store) this.task.status = status;
    const { id: taskId, contextId } = this.task;
    const value = { taskId, contextId, status, metadata: this.metadata };
    return { update: { payload: { $case: "statusUpdate", value } }, store, ...this.#now() };
  }

  /** The snapshot and phase as of now (steps are built ahead of being written). */
  #now(): { snapshot: TaskPayload; phase: TaskPhase } {
    const state = this.task.status?.state;
    return { snapshot: encodeTask(this.task), phase: state === undefined ? "active" : phaseOf(state) };
  }

  #messageIds() {
    return { messageId: this.services.ids.uuid(), contextId: this.task.contextId, taskId: this.task.id };
  }
}
