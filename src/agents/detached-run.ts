import type { Content } from "../core/content.js";
import { createEvent, type Event } from "../core/event.js";
import { newInvocationId } from "../core/ids.js";
import type { Session } from "../core/session.js";
import { withLazySignal } from "../core/signal-source.js";
import type { StateMap } from "../core/state.js";
import type { OpenSpan } from "../core/trace.js";
import type { BaseAgent } from "./base-agent.js";
import { InvocationContext } from "./invocation-context.js";

/**
 * Runs `agent` once on a session of its own that lives in memory and is dropped afterwards (what ADK's
 * AgentTool gets from a fresh Runner over an InMemorySessionService). The session starts with `state`
 * and the user's `message`; each complete event is applied to it before the agent goes on, as the runner
 * does. Failures are thrown to the caller. Its spans go to the caller's trace.
 */
export async function* runDetached(
  agent: BaseAgent,
  parent: InvocationContext,
  message: Content,
  state: StateMap,
  parentSpan?: OpenSpan,
): AsyncGenerator<Event> {
  const { services } = parent;
  const invocationId = newInvocationId(services.ids);
  const session: Session = {
    id: services.ids.uuid(),
    appName: parent.session.appName,
    userId: parent.session.userId,
    state: { ...state },
    events: [],
    lastUpdateTime: services.clock.now() / 1000,
  };
  session.events.push(createEvent({ invocationId, author: "user", content: message }, services));
  const { plugins } = parent.runConfig;
  const ctx = new InvocationContext({
    invocationId,
    session,
    rootAgent: agent,
    agent,
    userContent: message,
    // The caller's plugins and signal too, as ADK's AgentTool passes its runner's plugins on.
    runConfig: withLazySignal(
      { streaming: false, maxLlmCalls: parent.runConfig.maxLlmCalls, ...(plugins ? { plugins } : {}) },
      "signal",
      parent.runConfig,
    ),
    services,
    resources: parent.resources,
  });
  // Same trace as the caller: its spans nest under `parentSpan` (the calling tool's), else the caller's agent.
  ctx.recorder = parent.recorder;
  ctx.span = parentSpan ?? parent.span;
  for await (const event of agent.runAsync(ctx)) {
    if (!event.partial) {
      session.events.push(event);
      Object.assign(session.state, event.actions.stateDelta);
    }
    yield event;
  }
}
