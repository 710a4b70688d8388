import type { Part } from "../core/content.js";
import { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "./constants.js";

/**
 * The `transfer_to_agent` call naming `agentName`, as a model would have made it. An agent kind without
 * a model (rules, a remote agent, a foreign tool loop) puts it on its own event before the response.
 */
export const transferCallPart = (callId: string, agentName: string): Part => ({
  functionCall: { id: callId, name: TRANSFER_TOOL_NAME, args: { [AGENT_NAME_PARAM]: agentName } },
});

/** The function response of an accepted transfer: Python's tool returns None (ADK-SEMANTICS §3.1). */
export const transferResponsePart = (callId: string): Part => ({
  functionResponse: { id: callId, name: TRANSFER_TOOL_NAME, response: { result: null } },
});
