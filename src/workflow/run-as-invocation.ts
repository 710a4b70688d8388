import type { InvocationContext } from "../agents/invocation-context.js";
import type { Content } from "../core/content.js";
import type { Event } from "../core/event.js";
import { outputContent } from "./content-of.js";
import { directSpawn } from "./direct-spawn.js";
import { EventChannel } from "./event-channel.js";
import { ReportedFailure, WorkflowStopped } from "./failures.js";
import type { WorkflowNode } from "./node.js";
import { NodeContext } from "./node-context.js";
import { runChild } from "./node-runner.js";
import { eventsForCurrentRun, resolvedResponses } from "./rehydration.js";
import { LazyAbort } from "./signals.js";

/**
 * A workflow run as an invocation's agent (ADK `runNodeAsInvocation`): its input is the user's text (or
 * message), its nodes' events come out of one channel in the order they are sent, each stored before its
 * node goes on, and its output ends the run as an event of its own unless the last output event already
 * was it. A failure whose error event is stored (a remote agent's) ends it quietly; any other is thrown
 * with its node's path, and the runner stores it as the failing node's error event.
 */
export async function* runAsInvocation(
  workflow: WorkflowNode,
  ctx: InvocationContext,
): AsyncGenerator<Event> {
  const channel = new EventChannel();
  const root = new NodeContext(ctx, {
    channel,
    nodePath: "",
    runId: workflow.name,
    resumeInputs: plainTextAnswer(ctx),
    isolationScope: undefined,
    spawn: directSpawn,
  });
  let waiting = false;
  const stop = new LazyAbort(ctx.runConfig);
  const settled = (async () => {
    try {
      const result = await runChild({
        parent: root,
        node: workflow,
        input: inputOf(ctx.userContent),
        stop,
        useAsOutput: true,
      });
      waiting = result.interruptIds.length > 0;
      channel.close();
    } catch (error) {
      channel.fail(error);
    }
  })();
  let lastOutput: unknown;
  let drained = false;
  try {
    for await (const event of channel.drain()) {
      if (event.output !== undefined) lastOutput = event.output;
      yield event;
    }
    drained = true;
  } catch (error) {
    drained = true;
    if (error instanceof ReportedFailure || error instanceof WorkflowStopped) return;
    throw error;
  } finally {
    // Left early (the turn was stopped): the nodes are told to stop and not waited for, as a body stuck in
    // an await would hold the turn's end (and its lease) back.
    if (drained) await settled;
    else stop.stop(new WorkflowStopped("The turn stopped."));
  }
  const output = root.output;
  if (waiting || output === undefined) return;
  const last = lastOutput ?? storedOutput(ctx);
  if (last !== undefined && sameValue(last, output)) return;
  const content = outputContent(output);
  yield ctx.newEvent({ ...(content ? { content } : {}), output });
}

/** The workflow's input: the message's text, or the message itself when it has none (ADK `extractNodeInput`). */
function inputOf(content: Content): unknown {
  const texts = (content.parts ?? []).flatMap((p) => (p.text === undefined ? [] : [p.text]));
  return texts.length > 0 ? texts.join("") : content;
}

/** A plain-text reply answers the one question the workflow waits on, when exactly one is open. */
function plainTextAnswer(ctx: InvocationContext): Record<string, unknown> {
  const parts = ctx.userContent.parts ?? [];
  if (parts.length === 0 || !parts.every((p) => p.text !== undefined)) return {};
  const events = eventsForCurrentRun(ctx.session.events, ctx.invocationId);
  const answered = resolvedResponses(events);
  const open = new Set<string>();
  for (const event of events)
    if (event.author !== "user" && event.nodeInfo?.path)
      for (const id of event.longRunningToolIds ?? []) if (!answered.has(id)) open.add(id);
  const [only] = open;
  return open.size === 1 && only !== undefined ? { [only]: parts.map((p) => p.text).join("") } : {};
}

/** The output of this invocation's newest stored event that has one (a resumed run's last output). */
function storedOutput(ctx: InvocationContext): unknown {
  const events = ctx.session.events;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (!event || event.invocationId !== ctx.invocationId) break;
    if (event.output !== undefined) return event.output;
  }
  return undefined;
}

const sameValue = (a: unknown, b: unknown): boolean =>
  Object.is(a, b) || JSON.stringify(a) === JSON.stringify(b);
