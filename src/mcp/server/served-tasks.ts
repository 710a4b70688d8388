import { type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import {
  type CallToolResult,
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import type { Context } from "hono";
import { agentText } from "../../a2a/server/messages.js";
import { newTaskId } from "../../a2a/server/task-ids.js";
import { encodeTask, encodeUpdate } from "../../a2a/server/task-json.js";
import type { TaskKey, TaskPhase, TaskStore } from "../../core/task-store.js";
import type { HonoEnv } from "../../handlers/types.js";
import { waitUntilOf } from "../../handlers/wait-until.js";
import type { App } from "../../runner/app.js";
import type { McpServedTool, McpToolAnswer } from "./mcp-route.js";
import { CREATED_KEY, ERROR_KEY, RESULT_KEY } from "./task-keys.js";
import { type CreateTaskAnswer, createTaskAnswer } from "./turn-tasks.js";

/*
 * A served tool (`mcpServer({ tools })`) that runs as a task of MCP's Tasks extension (decision 057): the
 * same kind of record as a turn's, an A2A task in the task store, in a session of its own for the caller,
 * so `tasks/get` and `tasks/cancel` treat both alike. The handler runs after the answer (`waitUntil`); its
 * answer is kept in the task's metadata (`mcp_result`, or `mcp_error` for a protocol error).
 */

/** One status write of a served tool's task (snapshot and update), unless the task is already over. */
async function writeStatus(
  c: Context<HonoEnv>,
  store: TaskStore,
  key: TaskKey,
  task: Task,
  state: TaskState,
  phase: TaskPhase,
  now: string,
  text: string | undefined,
): Promise<void> {
  const ids = { messageId: c.var.deps.services.ids.uuid(), contextId: task.contextId, taskId: task.id };
  const status = { state, message: text === undefined ? undefined : agentText(ids, text), timestamp: now };
  task.status = status;
  const update: StreamResponse = {
    payload: {
      $case: "statusUpdate",
      value: { taskId: task.id, contextId: task.contextId, status, metadata: undefined },
    },
  };
  await store.writeTask(key, { snapshot: encodeTask(task), phase, update: encodeUpdate(update) });
}

/** What the handler's answer makes of the task: completed with the result, or failed. */
function outcomeOf(answer: McpToolAnswer): {
  result?: CallToolResult;
  error?: { code: number; message: string };
} {
  if (isInputRequiredResult(answer))
    return {
      error: {
        code: ProtocolErrorCode.InternalError,
        message: "The tool asked for input (input_required), which a served tool's task cannot do yet.",
      },
    };
  return { result: answer };
}

/**
 * Starts `served` as a task: a new session of the caller's holds it, the handler runs after the answer.
 * `run` is the served tool's call (its throws already turned into results, but a `ProtocolError`).
 */
export async function startServedTask(
  c: Context<HonoEnv>,
  app: App,
  userId: string,
  served: McpServedTool,
  run: () => Promise<McpToolAnswer>,
): Promise<CreateTaskAnswer> {
  const { sessionStore, taskStore, services } = c.var.deps;
  if (taskStore === undefined) throw new ProtocolError(ProtocolErrorCode.InternalError, "No task store.");
  const sessionId = services.ids.uuid();
  await sessionStore.createSession({ appName: app.name, userId, sessionId });
  const taskId = newTaskId(services.ids.uuid(), sessionId);
  const key: TaskKey = { appName: app.name, userId, sessionId, taskId };
  const now = () => new Date(services.clock.now()).toISOString();
  const createdAt = now();
  const task: Task = {
    id: taskId,
    contextId: sessionId,
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: createdAt },
    artifacts: [],
    history: [],
    metadata: { mcp_tool: served.tool.name, [CREATED_KEY]: createdAt },
  };
  const first: StreamResponse = { payload: { $case: "task", value: task } };
  const opened = await taskStore.openTask(key, `mcp-${services.ids.uuid()}`, {
    snapshot: encodeTask(task),
    phase: "active",
    update: encodeUpdate(first),
  });
  if (!opened.ok) throw new ProtocolError(ProtocolErrorCode.InternalError, "The task could not be stored.");
  const work = (async () => {
    let outcome: ReturnType<typeof outcomeOf>;
    try {
      outcome = outcomeOf(await run());
    } catch (error) {
      const code = error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;
      outcome = { error: { code, message: error instanceof Error ? error.message : String(error) } };
    }
    // A task cancelled meanwhile is terminal: the store refuses this write, and the outcome is dropped.
    task.metadata = { ...task.metadata, ...(outcome.result ? { [RESULT_KEY]: outcome.result } : {}) };
    if (outcome.error) task.metadata = { ...task.metadata, [ERROR_KEY]: outcome.error };
    const state = outcome.error ? TaskState.TASK_STATE_FAILED : TaskState.TASK_STATE_COMPLETED;
    await writeStatus(c, taskStore, key, task, state, "terminal", now(), outcome.error?.message);
  })().catch((error: unknown) => services.log(`MCP task ${taskId} broke: ${String(error)}`));
  // Outside a Worker (no execution context) the work just runs on.
  waitUntilOf(c)?.(work);
  return createTaskAnswer(task, createdAt);
}

/** Whether this served tool runs as a task for this request; `required` without the extension is -32021. */
export function servedAsTask(served: McpServedTool, declared: boolean, refusal: () => Error): boolean {
  if (served.task === "required" && !declared) throw refusal();
  return served.task !== undefined && declared;
}
