import type { A2aMessage, A2aTask } from "../protocol/a2a-objects.js";
import type { AgentCardJson } from "../protocol/agent-card.js";
import { type CallOptions, cancelTask, listTasks } from "./a2a-transport.js";
import type { ChosenInterface } from "./choose-interface.js";
import type { ResponseItem } from "./response-item.js";
import { isSettledState, isStreamComplete } from "./stream-complete.js";

/** How long a stopped turn gives the remote agent's tasks to be found and take their cancel. */
export const CANCEL_TIMEOUT_MS = 5_000;
/** Waits before looking again while no task holds the message: the peer may not have made it yet. */
const LOOK_AGAIN_MS = [250, 1_000];

/** A remote call its turn stopped, and what it knew when it stopped. */
export interface StoppedCall {
  card: AgentCardJson;
  chosen: ChosenInterface;
  /** The message Baton sent: its `messageId` is how a task it started is recognised. */
  message: A2aMessage;
  /** The last reply it read, if any. */
  last: ResponseItem | undefined;
  options: Omit<CallOptions, "streaming" | "signal">;
  sleep: (ms: number) => Promise<void>;
  log: (line: string) => void;
}

/**
 * Cancels the remote task(s) a stopped call leaves running (decision 028, "Stop"), within
 * `CANCEL_TIMEOUT_MS`; a failure is only logged. Streamed calls name their task in their first reply; a
 * blocking call has none until it answers, so its task is found: the task the message continued
 * (`taskId`), else, on an A2A 1.0 peer, the unsettled tasks whose history holds the message's id.
 */
export async function cancelStoppedCall(call: StoppedCall): Promise<void> {
  const { last, log } = call;
  if (last?.kind === "message" || isStreamComplete(last)) return;
  const signal = AbortSignal.timeout(CANCEL_TIMEOUT_MS);
  const options = { ...call.options, signal };
  let taskIds: string[];
  try {
    taskIds = last ? [last.task.id] : call.message.taskId ? [call.message.taskId] : await find(call, signal);
  } catch (error) {
    log(`could not find the stopped call's remote task: ${String(error)}`);
    return;
  }
  for (const taskId of taskIds) {
    try {
      await cancelTask(call.card, call.chosen, taskId, options);
    } catch (error) {
      log(`tasks/cancel of ${taskId} failed: ${String(error)}`);
    }
  }
}

/** The unsettled tasks whose history holds the message, looked for again while none does. */
async function find(call: StoppedCall, signal: AbortSignal): Promise<string[]> {
  const { message, chosen } = call;
  if (chosen.protocolVersion.startsWith("0.")) {
    call.log("the stopped call named no task, and an A2A 0.3 peer cannot list them: its task may run on");
    return [];
  }
  const options = { ...call.options, signal };
  for (const wait of [0, ...LOOK_AGAIN_MS]) {
    if (wait > 0) await call.sleep(wait);
    signal.throwIfAborted();
    const found: string[] = [];
    for await (const task of listTasks(call.card, chosen, message.contextId ?? "", options))
      if (startedBy(task, message.messageId)) found.push(task.id);
    if (found.length > 0) return found;
  }
  call.log(`no unsettled remote task holds message ${message.messageId}: nothing to cancel`);
  return [];
}

const startedBy = (task: A2aTask, messageId: string): boolean =>
  !isSettledState(task.status.state) && task.history.some((m) => m.messageId === messageId);
