import { type Message, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { RequestMalformedError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { Content } from "../../core/content.js";
import { BatonError } from "../../core/errors.js";
import type { Event } from "../../core/event.js";
import { ID_LIMITS } from "../../core/limits.js";
import type { SessionKey } from "../../core/session.js";
import type { TaskKey, TaskRecord } from "../../core/task-store.js";
import { Runner } from "../../runner/runner.js";
import { assertA2aId, contextBusy, taskNotFound, toA2aError } from "./a2a-errors.js";
import { fromA2aPart } from "./parts.js";
import type { A2aServerDeps } from "./server-deps.js";
import { contextOfTask, newTaskId } from "./task-ids.js";
import { decodeTask, encodeTask, encodeUpdate } from "./task-json.js";
import { TaskProjection } from "./task-projection.js";

/** A turn begun for a task: its key, the projection of its snapshot, and the runner's events to drive. */
export interface StartedTask {
  key: TaskKey;
  projection: TaskProjection;
  events: AsyncGenerator<Event>;
  /** A new task starts with `working`; a resumed one already said so when it was opened. */
  isNew: boolean;
}

/**
 * Begins the turn a message asks for: its context is a Baton session (created on first use), its task new
 * or the interrupted one it names. The turn's lease is taken before the task is recorded, so a refused
 * message (busy context, closed task, bad parts) stores nothing.
 */
export async function startTask(
  deps: A2aServerDeps,
  message: Message | undefined,
  streaming: boolean,
): Promise<StartedTask> {
  if (!message) throw new RequestMalformedError("The request has no message.");
  assertA2aId(ID_LIMITS.contextId, message.contextId, "message.contextId");
  assertA2aId(ID_LIMITS.taskId, message.taskId, "message.taskId");
  assertA2aId(ID_LIMITS.messageId, message.messageId, "message.messageId");
  const ids = deps.services.ids;
  const contextId = message.contextId || (message.taskId && contextOfTask(message.taskId)) || ids.uuid();
  const session: SessionKey = {
    appName: deps.app.name,
    userId: deps.userIdFor(contextId),
    sessionId: contextId,
  };
  const existing = message.taskId ? await resumable(deps, session, message.taskId, contextId) : undefined;
  const taskId = existing?.taskId ?? newTaskId(ids.uuid(), contextId);
  const key: TaskKey = { ...session, taskId };
  const invocationId = `e-${ids.uuid()}`;
  const newMessage = contentOf(message);
  const userMessage: Message = { ...message, contextId, taskId };
  const events = await beginTurn(deps, session, { newMessage, invocationId, streaming });
  const metadata = { adk_app_name: session.appName, adk_user_id: session.userId, adk_session_id: contextId };
  const snapshot: Task = existing
    ? decodeTask(existing.snapshot)
    : { id: taskId, contextId, status: undefined, artifacts: [], history: [], metadata: undefined };
  snapshot.history.push(userMessage);
  const projection = new TaskProjection(snapshot, deps.services, metadata);
  let first: StreamResponse;
  if (existing) first = projection.started().update;
  else {
    snapshot.status = {
      state: TaskState.TASK_STATE_SUBMITTED,
      message: undefined,
      timestamp: new Date(deps.services.clock.now()).toISOString(),
    };
    first = { payload: { $case: "task", value: snapshot } };
  }
  const opened = await deps.taskStore.openTask(key, invocationId, {
    snapshot: encodeTask(projection.task),
    phase: "active",
    update: encodeUpdate(first),
  });
  if (!opened.ok) {
    await events.return(undefined);
    throw contextBusy(contextId, taskId);
  }
  return { key, projection, events, isNew: !existing };
}

/** The interrupted task a message continues; other states are errors the client can act on. */
async function resumable(
  deps: A2aServerDeps,
  session: SessionKey,
  taskId: string,
  contextId: string,
): Promise<TaskRecord> {
  if (contextOfTask(taskId) !== contextId) throw taskNotFound(taskId);
  const record = await deps.taskStore.getTask({ ...session, taskId });
  if (!record) throw taskNotFound(taskId);
  if (record.phase === "terminal")
    throw new UnsupportedOperationError(
      `Task ${taskId} is in a terminal state; send a message without its taskId to start a new task.`,
    );
  if (record.phase === "active") throw contextBusy(contextId, taskId);
  return record;
}

interface TurnRequest {
  newMessage: Content;
  invocationId: string;
  streaming: boolean;
}

/** Starts the runner's turn, creating the session on first use; a held lease is the busy error. */
async function beginTurn(
  deps: A2aServerDeps,
  key: SessionKey,
  turn: TurnRequest,
): Promise<AsyncGenerator<Event>> {
  const { app, sessionStore, services, onTrace } = deps;
  const runner = new Runner({ app, sessionStore, services, ...(onTrace ? { onTrace } : {}) });
  const start = () => runner.start({ userId: key.userId, sessionId: key.sessionId, ...turn });
  try {
    return await start().catch(async (error: unknown) => {
      if (!(error instanceof BatonError) || error.code !== "session_not_found") throw error;
      await deps.sessionStore.createSession({ ...key }).catch((created: unknown) => {
        if (!(created instanceof BatonError) || created.code !== "session_exists") throw created;
      });
      return start();
    });
  } catch (error) {
    if (error instanceof BatonError && error.code === "session_busy")
      throw contextBusy(key.sessionId, await deps.taskStore.activeTask(key));
    throw toA2aError(error);
  }
}

/** The message's parts as the user content of a turn; a message with nothing usable is malformed. */
function contentOf(message: Message): Content {
  const parts = message.parts.flatMap((part) => {
    const converted = fromA2aPart(part);
    return converted ? [converted] : [];
  });
  if (parts.length === 0) throw new RequestMalformedError("The message has no text, data or file parts.");
  return { role: "user", parts };
}
