/** ADK's hand-off tool. Models and stored transcripts expect this name verbatim (ADK-SEMANTICS §3.1). */
export const TRANSFER_TOOL_NAME = "transfer_to_agent";

/** The tool's one parameter: snake_case on the wire, as in Python and adk-js 2. */
export const AGENT_NAME_PARAM = "agent_name";
