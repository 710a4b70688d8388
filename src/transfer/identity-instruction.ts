import type { AgentNode } from "../router/agent-node.js";

/**
 * ADK's identity line (`identity.py`): every agent states its name and description, because other
 * agents' descriptions are what a transfer decision reads (ADK-SEMANTICS §3.3).
 */
export const identityInstruction = (agent: AgentNode): string =>
  `You are an agent. Your internal name is "${agent.name}".` +
  (agent.description ? ` The description about you is "${agent.description}".` : "");
