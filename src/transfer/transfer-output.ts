import { z } from "zod";
import { AGENT_NAME_PARAM } from "./constants.js";

/**
 * The structured result a non-ADK runtime's `transfer_to_agent` tool returns to its own loop, and what
 * the stored function response of that call holds. A runtime's stop condition recognises it.
 */
export const TransferOutputSchema = z.object({
  status: z.literal("transferred"),
  [AGENT_NAME_PARAM]: z.string().min(1),
});
export type TransferOutput = z.infer<typeof TransferOutputSchema>;

/** The tool output of an accepted transfer to the agent named `agentName`. */
export const transferOutput = (agentName: string): TransferOutput => ({
  status: "transferred",
  agent_name: agentName,
});

/** The target named by a tool result when it is a transfer output; `undefined` for any other result. */
export function transferFromOutput(output: unknown): string | undefined {
  const parsed = TransferOutputSchema.safeParse(output);
  return parsed.success ? parsed.data.agent_name : undefined;
}
