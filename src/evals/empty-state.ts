import type { BaseAgent } from "../agents/base-agent.js";
import { LlmAgent } from "../agents/llm-agent.js";

/**
 * ADK's `create_empty_state`: every `{name}` an agent's text instruction reads, set to `""`, so a case added
 * from a session starts its replay with the keys the instructions expect (ADK puts this in the case's
 * `session_input.state`). Function instructions are not read.
 */
export function emptyState(agent: BaseAgent): Record<string, string> {
  const state: Record<string, string> = {};
  const visit = (node: BaseAgent) => {
    for (const sub of node.subAgents) visit(sub);
    const instruction = node instanceof LlmAgent ? node.config.instruction : undefined;
    if (typeof instruction !== "string") return;
    for (const [, key] of instruction.matchAll(/\{(\w+)\}/g)) if (key) state[key] = "";
  };
  visit(agent);
  return state;
}
