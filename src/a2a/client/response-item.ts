import type { Content } from "../../core/content.js";
import type { EventActions } from "../../core/event.js";
import type {
  A2aArtifactUpdate,
  A2aMessage,
  A2aStatusUpdate,
  A2aStreamResponse,
  A2aTask,
} from "../protocol/a2a-objects.js";

/**
 * One reply item as ADK sees it (ADK-SEMANTICS §5.3): a message, or the running task snapshot with the
 * update that changed it (`task` alone for a whole Task: the blocking reply or a stream's first item).
 */
export type ResponseItem =
  | { kind: "message"; message: A2aMessage }
  | { kind: "task"; task: A2aTask }
  | { kind: "status"; task: A2aTask; update: A2aStatusUpdate }
  | { kind: "artifact"; task: A2aTask; update: A2aArtifactUpdate };

/** The event fields a converter makes from one item; the agent adds author, ids and `a2a:*` keys. */
export interface EventDraft {
  content?: Content;
  partial?: boolean;
  longRunningToolIds?: string[];
  customMetadata?: Record<string, unknown>;
  errorCode?: string;
  errorMessage?: string;
  groundingMetadata?: Record<string, unknown>;
  citationMetadata?: Record<string, unknown>;
  usageMetadata?: Record<string, unknown>;
  actions?: Partial<EventActions>;
}

/** What a converter may need besides the item. */
export interface ConvertContext {
  /** A fresh function-call id (`adk-…`) for the mock calls of input-required and auth-required. */
  newFunctionCallId(): string;
}

/** Turns one reply item into event fields, or `undefined` for no event. */
export type ResponseConverter = (item: ResponseItem, ctx: ConvertContext) => EventDraft | undefined;

/**
 * Folds a stream into items (ADK `_compat.make_stream_normalizer`): status and artifact updates are
 * applied to a running snapshot of the task, which travels with each update.
 */
export class StreamFolder {
  private snapshot: A2aTask | undefined;

  /** The item for one reply, the snapshot updated first. */
  fold(response: A2aStreamResponse): ResponseItem {
    if ("message" in response) return { kind: "message", message: response.message };
    if ("task" in response) {
      this.snapshot = structuredClone(response.task);
      return { kind: "task", task: response.task };
    }
    if ("statusUpdate" in response) {
      const update = response.statusUpdate;
      const task = this.taskFor(update.taskId, update.contextId);
      task.status = update.status;
      return { kind: "status", task: structuredClone(task), update };
    }
    const update = response.artifactUpdate;
    const task = this.taskFor(update.taskId, update.contextId);
    const existing = task.artifacts.find((a) => a.artifactId === update.artifact.artifactId);
    if (existing && update.append) existing.parts.push(...structuredClone(update.artifact.parts));
    else if (existing) Object.assign(existing, structuredClone(update.artifact));
    else task.artifacts.push(structuredClone(update.artifact));
    return { kind: "artifact", task: structuredClone(task), update };
  }

  private taskFor(id: string, contextId: string | undefined): A2aTask {
    this.snapshot ??= {
      id,
      ...(contextId ? { contextId } : {}),
      status: { state: "TASK_STATE_UNSPECIFIED" },
      artifacts: [],
      history: [],
    };
    return this.snapshot;
  }
}

/** The wire object an item stands for, for `a2a:response` (the full task snapshot for updates, §5.3). */
export function responseOf(item: ResponseItem): A2aMessage | A2aTask {
  return item.kind === "message" ? item.message : item.task;
}
