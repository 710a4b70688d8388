import type { AgentCallback } from "../../../src/agents/callbacks.js";

/*
 * TypeScript ports of the agent callbacks ADK's conformance agents define in Python
 * (`agents/callback_agent_00N/callbacks.py` of google/adk-conformance), keyed by their dotted names.
 * Each does what its Python does to the session state and returns what it returns.
 */

/** Appends `suffix` to a string state value, as Python's `state[key] += suffix` (a missing key fails). */
function appendTo(key: string, suffix: string): AgentCallback {
  return (ctx) => {
    const value = ctx.state.get(key);
    if (typeof value !== "string")
      throw new TypeError(`state["${key}"] is ${JSON.stringify(value)}, not a string to append to`);
    ctx.state.set(key, `${value}${suffix}`);
    return undefined;
  };
}

const setTo =
  (key: string, value: string): AgentCallback =>
  (ctx) => {
    ctx.state.set(key, value);
    return undefined;
  };

/** `callback_agent_002.callbacks.shortcut_agent_execution`: answers for the agent once the flag is set. */
const shortcutAgentExecution: AgentCallback = (ctx) => {
  if (ctx.state.has("conversation_limit_reached")) {
    return { role: "model", parts: [{ text: "Sorry, you have reached the limit of the conversation." }] };
  }
  ctx.state.set("conversation_limit_reached", "True");
  return undefined;
};

/** The before/after agent callbacks, by Python name. */
export const agentCallbacks: Readonly<Record<string, AgentCallback>> = {
  "callback_agent_001.callbacks.before_agent_callback1": setTo("before_agent_callback_state_key", "value1"),
  "callback_agent_001.callbacks.before_agent_callback2": appendTo(
    "before_agent_callback_state_key",
    "+value2",
  ),
  "callback_agent_002.callbacks.shortcut_agent_execution": shortcutAgentExecution,
  "callback_agent_003.callbacks.after_agent_callback1": setTo("after_agent_callback_state_key", "value1"),
  "callback_agent_003.callbacks.after_agent_callback2": appendTo("after_agent_callback_state_key", "+value2"),
};
