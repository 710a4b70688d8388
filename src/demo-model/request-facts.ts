import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import * as z from "zod";
import { RELAY_PREAMBLE } from "../agents/history.js";
import { readIdentity } from "../transfer/agent-identity.js";
import { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "../transfer/constants.js";
import { readTransferTargets } from "../transfer/transfer-instruction.js";

/** An agent as the request states it. */
export interface StatedAgent {
  name: string;
  description: string;
}

/** What the demo model decides from: read from the request's structure, never from its prose. */
export interface RequestFacts {
  /** The answering agent, from its identity line (absent for a request Baton did not build). */
  me: StatedAgent | undefined;
  /** The transfer tool's enum in order, each with the description the transfer block gives it. */
  targets: StatedAgent[];
  /** Every other function tool, with its JSON Schema. */
  tools: LanguageModelV3FunctionTool[];
  /** The newest text the user wrote (relayed events of other agents are not the user's). */
  userText: string;
}

/** The transfer tool's parameters: one property whose enum lists the valid target names. */
const TransferParametersSchema = z.object({
  properties: z.object({ [AGENT_NAME_PARAM]: z.object({ enum: z.array(z.string()) }) }),
});

const systemOf = (prompt: LanguageModelV3Prompt): string =>
  prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n");

/** The newest user-written text: tool results and relayed events of other agents are skipped. */
export function lastUserText(prompt: LanguageModelV3Prompt): string {
  for (const message of [...prompt].reverse()) {
    if (message.role !== "user") continue;
    const texts = message.content.flatMap((p) => (p.type === "text" ? [p.text] : []));
    if (texts.length === 0 || texts[0] === RELAY_PREAMBLE) continue;
    return texts.join("\n").trim();
  }
  return "";
}

/** The facts of one model call: identity, transfer targets (enum + stated descriptions), tools, user text. */
export function requestFacts(options: LanguageModelV3CallOptions): RequestFacts {
  const system = systemOf(options.prompt);
  const functions = (options.tools ?? []).filter(
    (t): t is LanguageModelV3FunctionTool => t.type === "function",
  );
  const transfer = functions.find((t) => t.name === TRANSFER_TOOL_NAME);
  const parameters = TransferParametersSchema.safeParse(transfer?.inputSchema);
  const names = parameters.success ? parameters.data.properties[AGENT_NAME_PARAM].enum : [];
  const stated = new Map(readTransferTargets(system).map((t) => [t.name, t.description]));
  return {
    me: readIdentity(system),
    targets: names.map((name) => ({ name, description: stated.get(name) ?? "" })),
    tools: functions.filter((t) => t !== transfer),
    userText: lastUserText(options.prompt),
  };
}
