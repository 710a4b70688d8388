import { Role, type Task } from "@a2a-js/sdk";
import { TaskNotCancelableError, TaskNotFoundError } from "@a2a-js/sdk/errors";
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Context } from "hono";
import * as z from "zod";
import { a2aPartsOf } from "../../a2a/server/messages.js";
import { contextOfTask } from "../../a2a/server/task-ids.js";
import { decodeTask } from "../../a2a/server/task-json.js";
import {
  type Content,
  type FunctionCall,
  functionCallsOf,
  functionResponsesOf,
  userText,
} from "../../core/content.js";
import type { Event } from "../../core/event.js";
import type { TaskKey, TaskRecord } from "../../core/task-store.js";
import { a2aHandlerAs } from "../../handlers/a2a.js";
import type { HonoEnv } from "../../handlers/types.js";
import type { App } from "../../runner/app.js";
import { answerServedTask, parkedInput, pendingRequests, type ServedCall } from "./served-tasks.js";
import type { McpServedTool } from "./served-tool.js";
import {
  CREATED_KEY,
  type CreateTaskAnswer,
  createTaskAnswer,
  ERROR_KEY,
  RESULT_KEY,
  taskFields,
} from "./task-wire.js";
import { resumeMessage, turnInputRequired } from "./turn-input.js";
import { turnResult } from "./turn-tool.js";

/*
 * MCP's Tasks extension (SEP-2663) for the app's turn tool, on the A2A task store: a task of a turn IS an A2A
 * task of the caller's session (same record, same id, `<uuid>:<sessionId>`), started as A2A's non-blocking
 * `SendMessage` starts one (the turn runs on in `waitUntil`), read from the store, cancelled as A2A's
 * `CancelTask` cancels one, and resumed, when it waits for input, by the answers sent as function responses.
 */

/** The extension's id, under `capabilities.extensions` both ways. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Whether this (2026-07-28) request's client declared the extension in its per-request capabilities. */
export function declaresTasks(extra: ServerContext): boolean {
  const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: unknown } | undefined;
  const extensions = capabilities?.extensions;
  return typeof extensions === "object" && extensions !== null && TASKS_EXTENSION in extensions;
}

/** The refusal of a tasks method (or a task-only tool) from a client without the extension (-32021). */
export const missingExtension = () =>
  new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `The tasks methods need the ${TASKS_EXTENSION} extension in the request's client capabilities.`,
  );

const unknownTask = (taskId: string) =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);

/**
 * A `tools/call` of the turn tool from a client that declared the extension: the turn starts as an A2A
 * task of the caller's session (a new session unless `sessionId` names one) and runs on after the answer,
 * a `CreateTaskResult`.
 */
export async function startTurnTask(
  c: Context<HonoEnv>,
  app: App,
  userId: string,
  message: string,
  sessionId: string | undefined,
): Promise<CreateTaskAnswer> {
  const sent = await sendWithoutWaiting(c, app, userId, {
    contextId: sessionId ?? "",
    taskId: "",
    parts: a2aPartsOf(userText(message)),
  });
  // A message always starts a task here (Baton's handler answers nothing else).
  if (!("status" in sent)) throw new Error("The turn did not start a task.");
  return createTaskAnswer(sent, new Date(c.var.deps.services.clock.now()).toISOString());
}

const TaskIdParams = z.looseObject({ taskId: z.string().min(1) });
const UpdateParams = z.looseObject({
  taskId: z.string().min(1),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});

/** A task of the caller's (one they cannot reach is not found). */
interface FoundTask {
  key: TaskKey;
  record: TaskRecord;
  task: Task;
}

async function findTask(c: Context<HonoEnv>, app: App, userId: string, taskId: string): Promise<FoundTask> {
  const sessionId = contextOfTask(taskId);
  const store = c.var.deps.taskStore;
  if (sessionId === null || store === undefined || taskId.length > 512) throw unknownTask(taskId);
  const key: TaskKey = { appName: app.name, userId, sessionId, taskId };
  const record = await store.getTask(key);
  if (record === null) throw unknownTask(taskId);
  return { key, record, task: decodeTask(record.snapshot) };
}

/** The session's events of the task's latest invocation (its turn), and when the task was created. */
async function turnEvents(c: Context<HonoEnv>, found: FoundTask) {
  const { appName, userId, sessionId } = found.key;
  const session = await c.var.deps.sessionStore.getSession({ appName, userId, sessionId });
  const own = (session?.events ?? []).filter((e) => e.invocationId === found.record.invocationId);
  const first = own[0]?.timestamp;
  const createdAt = new Date(first === undefined ? 0 : first * 1000).toISOString();
  return { own, createdAt };
}

/**
 * The calls a waiting task asks the client about: as A2A's projection counts them, the long-running calls
 * (`longRunningToolIds`, ADK's confirmations among them) of the turn that paused, even those a tool already
 * gave an interim answer to, unless the user answered them.
 */
function waitingCalls(own: readonly Event[]): FunctionCall[] {
  const waiting = new Map<string, FunctionCall>();
  for (const event of own) {
    if (event.partial) continue;
    const longRunning = new Set(event.longRunningToolIds ?? []);
    for (const call of functionCallsOf(event.content))
      if (call.id !== undefined && longRunning.has(call.id)) waiting.set(call.id, call);
    if (event.author === "user")
      for (const response of functionResponsesOf(event.content))
        if (response.id !== undefined) waiting.delete(response.id);
  }
  return [...waiting.values()];
}

/** `tasks/get`: status and times; the tool result when completed, the error when failed, the questions. */
async function getTask(c: Context<HonoEnv>, app: App, userId: string, taskId: string) {
  const found = await findTask(c, app, userId, taskId);
  const { own, createdAt } = await turnEvents(c, found);
  // A served tool's task keeps its outcome and creation time in its metadata (served-tasks.ts).
  const stored = found.task.metadata ?? {};
  const fields = taskFields(found.task, String(stored[CREATED_KEY] ?? createdAt));
  if (fields.status === "completed")
    return { ...fields, result: stored[RESULT_KEY] ?? turnResult(found.key.sessionId, own) };
  if (fields.status === "failed")
    return {
      ...fields,
      error: stored[ERROR_KEY] ?? {
        code: ProtocolErrorCode.InternalError,
        message: fields.statusMessage ?? "The turn failed.",
      },
    };
  const parked = parkedInput(found.task);
  if (fields.status === "input_required" && parked !== undefined)
    return { ...fields, inputRequests: pendingRequests(parked) };
  if (fields.status === "input_required") {
    const { inputRequests } = turnInputRequired(found.key.sessionId, waitingCalls(own));
    return { ...fields, inputRequests };
  }
  return fields;
}

/** `tasks/cancel`: stops the turn as A2A's CancelTask does; a task already over is acknowledged too. */
async function cancelTask(c: Context<HonoEnv>, app: App, userId: string, taskId: string) {
  await findTask(c, app, userId, taskId);
  try {
    await a2aHandlerAs(c, app, userId).cancelTask({ tenant: "", id: taskId, metadata: undefined });
  } catch (error) {
    if (error instanceof TaskNotFoundError) throw unknownTask(taskId);
    if (!(error instanceof TaskNotCancelableError)) throw error;
  }
  return {};
}

/**
 * `tasks/update`: the client's answers to a waiting task. When every open call is answered the answers
 * resume the task's turn (function responses, as `/run` takes them), which runs on after the ack; answers
 * to only some of them are not kept (the task goes on waiting for all).
 */
async function updateTask(
  c: Context<HonoEnv>,
  app: App,
  userId: string,
  taskId: string,
  responses: Record<string, unknown> | undefined,
  served: ServedResume,
) {
  const found = await findTask(c, app, userId, taskId);
  if (found.record.phase !== "interrupted") return {};
  if (parkedInput(found.task) !== undefined) {
    await answerServedTask(c, found, responses, served);
    return {};
  }
  const { own } = await turnEvents(c, found);
  const { message, unanswered } = resumeMessage(waitingCalls(own), responses);
  if (unanswered.length > 0 || (message.parts ?? []).length === 0) return {};
  await resumeTurn(c, app, userId, found, message);
  return {};
}

/** Sends the answers into the waiting task (A2A's resume of an interrupted task), not waiting for the turn. */
async function resumeTurn(c: Context<HonoEnv>, app: App, userId: string, found: FoundTask, message: Content) {
  const { sessionId, taskId } = found.key;
  await sendWithoutWaiting(c, app, userId, { contextId: sessionId, taskId, parts: a2aPartsOf(message) });
}

/**
 * A user message to the app's A2A handler as the caller, answered at once (`returnImmediately`): the turn
 * it starts or resumes runs on after the answer, a task (or the message) as A2A's `SendMessage` gives it.
 */
function sendWithoutWaiting(
  c: Context<HonoEnv>,
  app: App,
  userId: string,
  to: { contextId: string; taskId: string; parts: ReturnType<typeof a2aPartsOf> },
) {
  return a2aHandlerAs(c, app, userId).sendMessage({
    tenant: "",
    message: {
      messageId: c.var.deps.services.ids.uuid(),
      ...to,
      role: Role.ROLE_USER,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: true,
    },
    metadata: undefined,
  });
}

/**
 * The extension's methods on one request's server (2026-07-28; gated on the client declaring it), and its
 * advertisement in `server/discover`. `tasks/result` and `tasks/list` (the removed v1 methods) stay unknown.
 */
export function serveTurnTasks(
  server: Server,
  c: Context<HonoEnv>,
  app: App,
  userId: string,
  served: { tools: readonly McpServedTool[]; run: ServedCall },
): void {
  server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  const gated =
    <P>(run: (params: P) => Promise<Record<string, unknown>>) =>
    (params: P, extra: ServerContext) => {
      if (!declaresTasks(extra)) throw missingExtension();
      return run(params);
    };
  server.setRequestHandler(
    "tasks/get",
    { params: TaskIdParams },
    gated((p: z.infer<typeof TaskIdParams>) => getTask(c, app, userId, p.taskId)),
  );
  server.setRequestHandler(
    "tasks/cancel",
    { params: TaskIdParams },
    gated((p: z.infer<typeof TaskIdParams>) => cancelTask(c, app, userId, p.taskId)),
  );
  server.setRequestHandler(
    "tasks/update",
    { params: UpdateParams },
    (p: z.infer<typeof UpdateParams>, extra: ServerContext) => {
      if (!declaresTasks(extra)) throw missingExtension();
      // The SDK lifts `inputResponses` off the params (as on a multi round-trip retry).
      const responses = extra.mcpReq.inputResponses ?? p.inputResponses;
      return updateTask(c, app, userId, p.taskId, responses, {
        served: served.tools,
        extra,
        run: served.run,
      });
    },
  );
}

/** What resumes a parked served tool's task: the tools, the update's context, the call. */
type ServedResume = { served: readonly McpServedTool[]; extra: ServerContext; run: ServedCall };

/** The answer of a turn task that could not start (a busy session, a refused message) as a tool error. */
export function taskRefusal(error: unknown): CallToolResult {
  const text = error instanceof Error ? error.message : String(error);
  return { content: [{ type: "text", text }], isError: true };
}
