import type { GenerateContentConfig } from "../core/generate-content-config.js";
import type { LlmRequest } from "../core/llm.js";
import { transferTargets } from "../router/transfer-targets.js";
import { identityInstruction } from "../transfer/agent-identity.js";
import { transferInstruction } from "../transfer/transfer-instruction.js";
import type { CallbackContext } from "./callback-context.js";
import { buildContents } from "./history.js";
import { fillInstruction } from "./instruction-template.js";
import type { InvocationContext } from "./invocation-context.js";
import type { LlmAgent } from "./llm-agent.js";

/**
 * One step's request: the system instruction in ADK's order (the agent's instruction, its identity, the
 * transfer block, joined by blank lines), filtered history, tools (the transfer tool last).
 */
export async function buildLlmRequest(
  agent: LlmAgent,
  ctx: InvocationContext,
  cbCtx: CallbackContext,
): Promise<LlmRequest> {
  const { instruction } = agent.config;
  const own =
    typeof instruction === "function"
      ? await instruction(cbCtx)
      : fillInstruction(instruction ?? "", cbCtx.state);
  const targets = transferTargets(agent);
  const systemInstruction = [own, identityInstruction(agent), transferInstruction(agent, targets)]
    .filter((block) => block.trim() !== "")
    .join("\n\n");
  const tools = (agent.config.tools ?? []).map((t) => t.declaration());
  if (targets.length > 0) tools.push(agent.transferTool.declaration());
  return {
    systemInstruction,
    contents: buildContents(ctx.events, agent.name, {
      includeContents: agent.config.includeContents ?? "default",
      branch: ctx.branch,
    }),
    tools,
    config: requestConfig(agent),
  };
}

/** The agent's generation config, a fresh copy per request (callbacks may change it); an output schema asks for JSON (ADK `set_output_schema`). */
function requestConfig(agent: LlmAgent): GenerateContentConfig {
  const config: GenerateContentConfig = structuredClone(agent.generateContentConfig);
  const schema = agent.outputJsonSchema;
  if (schema !== undefined) {
    config.responseSchema = schema;
    config.responseMimeType = "application/json";
  }
  return config;
}
