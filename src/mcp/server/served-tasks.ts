import { type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import {
  type CallToolResult,
  type InputRequests,
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Context } from "hono";
import * as z from "zod";
import { agentText } from "../../a2a/server/messages.js";
import { newTaskId } from "../../a2a/server/task-ids.js";
import { encodeTask, encodeUpdate } from "../../a2a/server/task-json.js";
import type { TaskKey, TaskPhase } from "../../core/task-store.js";
import type { HonoEnv } from "../../handlers/types.js";
import { waitUntilOf } from "../../handlers/wait-until.js";
import type { App } from "../../runner/app.js";
import type { McpServedTool, McpToolAnswer } from "./served-tool.js";
import {
  CREATED_KEY,
  type CreateTaskAnswer,
  createTaskAnswer,
  ERROR_KEY,
  INPUT_KEY,
  RESULT_KEY,
} from "./task-wire.js";

/*
 * A served tool (`mcpServer({ tools })`) that runs as a task of MCP's Tasks extension (decision 057): the
 * same kind of record as a turn's, an A2A task in the task store, in a session of its own for the caller,
 * so `tasks/get` and `tasks/cancel` treat both alike. The handler runs after the answer (`waitUntil`); its
 * answer is kept in the task's metadata (`mcp_result`, or `mcp_error` for a protocol error). A handler
 * that answers `input_required` parks the task (`input_required`, its requests and state kept); the
 * answers `tasks/update` brings are kept until every request has one, then the handler runs again with
 * them (`extra.mcpReq.inputResponses`, `requestState()`), as the retry of a multi round-trip call would.
 */

/** Calls a served tool (mcp-route's: what it throws becomes an `isError` result, but a `ProtocolError`). */
export type ServedCall = (
  served: McpServedTool,
  args: Record<string, unknown>,
  extra: ServerContext,
) => Promise<McpToolAnswer>;

/** What a parked task keeps to run its handler again. */
const InputSchema = z.object({
  args: z.record(z.string(), z.unknown()),
  requests: z.record(z.string(), z.unknown()),
  state: z.string().optional(),
  answers: z.record(z.string(), z.unknown()),
});
type ParkedInput = z.infer<typeof InputSchema>;

/** The input a served tool's task waits for, if it waits. */
export function parkedInput(task: Task): ParkedInput | undefined {
  const parsed = InputSchema.safeParse(task.metadata?.[INPUT_KEY]);
  return parsed.success ? parsed.data : undefined;
}

/** The requests of a parked task still unanswered. */
export function pendingRequests(input: ParkedInput): InputRequests {
  const pending: Record<string, unknown> = {};
  for (const [id, request] of Object.entries(input.requests))
    if (!(id in input.answers)) pending[id] = request;
  // SAFETY: kept as the handler's own `inputRequests`, which the SDK had checked.
  return pending as InputRequests;
}

/** One status write of a served tool's task (snapshot and update); a task already over refuses it. */
async function writeStatus(
  c: Context<HonoEnv>,
  key: TaskKey,
  task: Task,
  state: TaskState,
  phase: TaskPhase,
) {
  const { taskStore, services } = c.var.deps;
  const ids = { messageId: services.ids.uuid(), contextId: task.contextId, taskId: task.id };
  const error = task.metadata?.[ERROR_KEY] as { message?: string } | undefined;
  const message = error?.message === undefined ? undefined : agentText(ids, error.message);
  const status = { state, message, timestamp: new Date(services.clock.now()).toISOString() };
  task.status = status;
  const update: StreamResponse = {
    payload: {
      $case: "statusUpdate",
      value: { taskId: task.id, contextId: task.contextId, status, metadata: undefined },
    },
  };
  await taskStore?.writeTask(key, { snapshot: encodeTask(task), phase, update: encodeUpdate(update) });
}

/** Runs the handler after the answer and stores what it answered: a result, an error, or a request for input. */
function runInBackground(
  c: Context<HonoEnv>,
  key: TaskKey,
  task: Task,
  args: Record<string, unknown>,
  run: () => Promise<McpToolAnswer>,
): void {
  const work = (async () => {
    const { [INPUT_KEY]: _done, [RESULT_KEY]: _result, [ERROR_KEY]: _error, ...kept } = task.metadata ?? {};
    try {
      const answer = await run();
      if (isInputRequiredResult(answer)) {
        const input: ParkedInput = {
          args,
          requests: answer.inputRequests ?? {},
          ...(answer.requestState === undefined ? {} : { state: answer.requestState }),
          answers: {},
        };
        task.metadata = { ...kept, [INPUT_KEY]: input };
        return writeStatus(c, key, task, TaskState.TASK_STATE_INPUT_REQUIRED, "interrupted");
      }
      task.metadata = { ...kept, [RESULT_KEY]: answer satisfies CallToolResult };
      return writeStatus(c, key, task, TaskState.TASK_STATE_COMPLETED, "terminal");
    } catch (error) {
      const code = error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;
      const message = error instanceof Error ? error.message : String(error);
      task.metadata = { ...kept, [ERROR_KEY]: { code, message } };
      return writeStatus(c, key, task, TaskState.TASK_STATE_FAILED, "terminal");
    }
  })().catch((error: unknown) => c.var.deps.services.log(`MCP task ${key.taskId} broke: ${String(error)}`));
  // Outside a Worker (no execution context) the work just runs on.
  waitUntilOf(c)?.(work);
}

/** Starts `served` as a task: a new session of the caller's holds it, the handler runs after the answer. */
export async function startServedTask(
  c: Context<HonoEnv>,
  app: App,
  userId: string,
  call: { served: McpServedTool; args: Record<string, unknown>; extra: ServerContext; run: ServedCall },
): Promise<CreateTaskAnswer> {
  const { sessionStore, taskStore, services } = c.var.deps;
  if (taskStore === undefined) throw new ProtocolError(ProtocolErrorCode.InternalError, "No task store.");
  const sessionId = services.ids.uuid();
  await sessionStore.createSession({ appName: app.name, userId, sessionId });
  const key: TaskKey = {
    appName: app.name,
    userId,
    sessionId,
    taskId: newTaskId(services.ids.uuid(), sessionId),
  };
  const createdAt = new Date(services.clock.now()).toISOString();
  const task: Task = {
    id: key.taskId,
    contextId: sessionId,
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: createdAt },
    artifacts: [],
    history: [],
    metadata: { mcp_tool: call.served.tool.name, [CREATED_KEY]: createdAt },
  };
  const first: StreamResponse = { payload: { $case: "task", value: task } };
  const opened = await taskStore.openTask(key, `mcp-${services.ids.uuid()}`, {
    snapshot: encodeTask(task),
    phase: "active",
    update: encodeUpdate(first),
  });
  if (!opened.ok) throw new ProtocolError(ProtocolErrorCode.InternalError, "The task could not be stored.");
  runInBackground(c, key, task, call.args, () => call.run(call.served, call.args, call.extra));
  return createTaskAnswer(task, createdAt);
}

/**
 * `tasks/update` of a parked served task: keeps the answers to its pending requests (others are ignored);
 * once every request has one, the handler runs again with all of them, after the ack.
 */
export async function answerServedTask(
  c: Context<HonoEnv>,
  found: { key: TaskKey; task: Task },
  responses: Record<string, unknown> | undefined,
  resume: { served: readonly McpServedTool[]; extra: ServerContext; run: ServedCall },
): Promise<void> {
  const input = parkedInput(found.task);
  const served = resume.served.find((t) => t.tool.name === found.task.metadata?.mcp_tool);
  if (input === undefined || served === undefined) return;
  for (const [id, answer] of Object.entries(responses ?? {}))
    if (id in input.requests) input.answers[id] = answer;
  const { task, key } = found;
  const complete = Object.keys(input.requests).every((id) => id in input.answers);
  task.metadata = { ...task.metadata, [INPUT_KEY]: input };
  if (!complete) {
    await writeStatus(c, key, task, TaskState.TASK_STATE_INPUT_REQUIRED, "interrupted");
    return;
  }
  await writeStatus(c, key, task, TaskState.TASK_STATE_WORKING, "active");
  // The retry's context: this request's, with the gathered answers and the handler's own state.
  const extra = {
    ...resume.extra,
    mcpReq: {
      ...resume.extra.mcpReq,
      inputResponses: input.answers,
      requestState: () => input.state,
    },
  } as ServerContext;
  runInBackground(c, key, task, input.args, () => resume.run(served, input.args, extra));
}

/** Whether this served tool runs as a task for this request; `required` without the extension is -32021. */
export function servedAsTask(served: McpServedTool, declared: boolean, refusal: () => Error): boolean {
  if (served.task === "required" && !declared) throw refusal();
  return served.task !== undefined && declared;
}
