import type { BaseAgent } from "../agents/base-agent.js";
import { FINISH_TASK, FINISH_TASK_DONE, type FinishTaskTool } from "../agents/finish-task-tool.js";
import { LlmAgent } from "../agents/llm-agent.js";
import { treeScopes } from "../agents/state-scopes.js";
import { functionCallsOf, functionResponsesOf, textOf } from "../core/content.js";
import type { Event } from "../core/event.js";
import type { SharedScope } from "../core/state.js";
import { BaseNode } from "./base-node.js";
import { isContent } from "./content-of.js";
import type { NodeSettings } from "./node.js";
import type { NodeContext } from "./node-context.js";
import { remoteTaskState } from "./remote-task.js";

export interface AgentNodeSettings extends NodeSettings {
  /** The node's name, when it differs from the agent's. */
  name?: string;
  /**
   * `"task"`: the agent is a delegate whose work ends with an output. An LlmAgent declares it with its own
   * `mode` (it then ends with `finish_task`); any other agent, a remote A2A one above all, is a task here: the
   * node's input is its message and a completed A2A task's answer its output.
   */
  mode?: "task";
}

/**
 * An agent as a workflow node (ADK 2.x: `BaseAgent` is a node). An LlmAgent gets the node's input as a user
 * turn and reads only that turn (unless its `includeContents` says otherwise); its reply is the node's output
 * (`nodeInfo.messageAsOutput`). In task mode its output is what it passes to `finish_task`. Agents are
 * idempotent nodes: a resumed turn runs them again, and their tools answer for themselves (decision 028).
 */
export class AgentNode extends BaseNode {
  readonly kind = "agent";
  /** The agent works on a delegated task: it ends with an output (`finish_task`, a completed A2A task). */
  readonly task: boolean;

  constructor(
    readonly agent: BaseAgent,
    settings: AgentNodeSettings = {},
  ) {
    const finish = agent instanceof LlmAgent ? agent.finishTaskTool : undefined;
    const task = finish !== undefined || (settings.mode === "task" && !(agent instanceof LlmAgent));
    const { mode: _mode, name, ...rest } = settings;
    super({
      idempotent: true,
      rerunOnResume: true,
      waitForOutput: task,
      description: agent.description,
      ...rest,
      name: name ?? agent.name,
    });
    this.task = task;
    // ADK mutates the agent the same way: as a node, an LlmAgent reads the node's turn only.
    if (agent instanceof LlmAgent && !task && agent.config.includeContents === undefined)
      agent.requestSettings.includeContents = "none";
  }

  override sharedScopes(): readonly SharedScope[] {
    return treeScopes(this.agent);
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown> {
    const llm = this.agent instanceof LlmAgent ? this.agent : undefined;
    // ADK gives an LlmAgent its input as a user turn (not a task agent: it reads the history); a remote
    // delegate gets it as its message. A run a crash cut off stored it already.
    const asTurn = llm ? !this.task : this.task;
    if (asTurn && input !== undefined && input !== null && !ctx.resumed)
      yield ctx.newEvent({ author: "user", content: userContent(input) });
    if (llm?.finishTaskTool) yield* untilFinished(ctx, llm, llm.finishTaskTool);
    else if (llm) for await (const event of llm.runAsync(ctx.invocation)) yield withReplyOutput(llm, event);
    else if (this.task) yield* delegated(ctx, this.agent);
    else yield* this.agent.runAsync(ctx.invocation);
  }
}

function userContent(input: unknown) {
  if (isContent(input)) return { ...input, role: "user" };
  return { role: "user", parts: [{ text: typeof input === "string" ? input : JSON.stringify(input) }] };
}

/** A model reply event of an LlmAgent node with its text as the node's output (ADK `maybeSetOutput`). */
function withReplyOutput(agent: LlmAgent, event: Event): Event {
  const content = event.content;
  if (event.partial || content?.role !== "model" || !content.parts || functionCallsOf(content).length > 0)
    return event;
  const text = textOf(content);
  let output: unknown = text;
  if (agent.config.outputSchema && text.trim() !== "") {
    try {
      output = JSON.parse(text);
    } catch {
      output = text; // Not JSON after all: the text, as ADK keeps it.
    }
  }
  return { ...event, output, nodeInfo: { ...event.nodeInfo, messageAsOutput: true } };
}

/** A task-mode LlmAgent, until its `finish_task` call succeeded: that response carries the output. */
async function* untilFinished(
  ctx: NodeContext,
  agent: LlmAgent,
  finish: FinishTaskTool,
): AsyncGenerator<Event> {
  let args: Record<string, unknown> | undefined;
  for await (const event of agent.runAsync(ctx.invocation)) {
    const call = functionCallsOf(event.content).find((c) => c.name === FINISH_TASK);
    if (call) args = { ...call.args };
    const done = functionResponsesOf(event.content).some(
      (r) => r.name === FINISH_TASK && r.response.result === FINISH_TASK_DONE,
    );
    if (!done || args === undefined) {
      yield event;
      continue;
    }
    const output = finish.outputOf(args);
    const key = agent.config.outputKey;
    const stateDelta =
      key && output !== undefined ? { ...event.actions.stateDelta, [key]: output } : undefined;
    yield {
      ...event,
      output,
      nodeInfo: { ...event.nodeInfo, messageAsOutput: true },
      ...(stateDelta ? { actions: { ...event.actions, stateDelta } } : {}),
    };
    return;
  }
}

/**
 * Any other agent as a delegate (a remote A2A agent above all): its task's answer is the node's output once
 * the task completed. An `input-required` task pauses the node (its long-running call); a failed one is its
 * error event; a reply with no task (an A2A message) counts as completed.
 */
async function* delegated(ctx: NodeContext, agent: BaseAgent): AsyncGenerator<Event> {
  let answer: string | undefined;
  let settled = true;
  for await (const event of agent.runAsync(ctx.invocation)) {
    yield event;
    if (event.partial) continue;
    const state = remoteTaskState(event);
    if (state !== undefined) settled = state === "completed";
    if (event.errorCode !== undefined || (event.longRunningToolIds?.length ?? 0) > 0) settled = false;
    const text = textOf(event.content);
    if (event.content?.role === "model" && text !== "" && functionCallsOf(event.content).length === 0)
      answer = text;
  }
  if (settled && answer !== undefined) yield ctx.newEvent({ author: agent.name, output: answer });
}
