import { AGENT_NAME_PARAM } from "./constants.js";

/**
 * The structured result a non-ADK runtime's `transfer_to_agent` tool returns to its own loop, and what
 * the stored function response of that call holds. A runtime's stop condition recognises it. A type alias
 * (not an interface) so it fits `Record<string, unknown>`.
 */
export type TransferOutput = {
  status: "transferred";
  [AGENT_NAME_PARAM]: string;
};

/** The tool output of an accepted transfer to the agent named `agentName`. */
export const transferOutput = (agentName: string): TransferOutput => ({
  status: "transferred",
  agent_name: agentName,
});

/** The target named by a tool result when it is a transfer output; `undefined` for any other result. */
export function transferFromOutput(output: unknown): string | undefined {
  if (typeof output !== "object" || output === null) return undefined;
  const status: unknown = Reflect.get(output, "status");
  const name: unknown = Reflect.get(output, AGENT_NAME_PARAM);
  return status === "transferred" && typeof name === "string" && name !== "" ? name : undefined;
}
