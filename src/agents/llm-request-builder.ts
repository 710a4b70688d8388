import type { GenerateContentConfig } from "../core/generate-content-config.js";
import type { LlmRequest } from "../core/llm.js";
import type { AgentNode } from "../router/agent-node.js";
import { identityInstruction } from "../transfer/agent-identity.js";
import { transferOffer } from "../transfer/transfer-offer.js";
import type { CallbackContext } from "./callback-context.js";
import type { FunctionTool } from "./function-tool.js";
import { buildContents, type IncludeContents } from "./history.js";
import { fillInstruction } from "./instruction-template.js";
import type { InvocationContext } from "./invocation-context.js";
import type { InstructionProvider } from "./model-agent-config.js";
import type { ToolEntry } from "./toolset.js";

/** What a request is built from besides the agent's place in the tree: LlmAgent's and RuntimeAgent's config. */
export interface RequestSettings {
  instruction?: string | InstructionProvider | undefined;
  tools?: readonly ToolEntry[] | undefined;
  includeContents?: IncludeContents | undefined;
  /** Validated generation settings; a fresh copy goes on each request (callbacks may change it). */
  generateContentConfig?: GenerateContentConfig | undefined;
  /** An output schema as JSON Schema: the request then asks for JSON (ADK `set_output_schema`). */
  outputJsonSchema?: Record<string, unknown> | undefined;
}

/**
 * One step's request: the system instruction in ADK's order (the agent's instruction, its identity, the
 * transfer block, joined by blank lines), filtered history, tools (the transfer tool last). Shared by
 * every model-driven agent kind (LlmAgent, RuntimeAgent). `tools` are the step's (toolsets resolved).
 */
export async function buildLlmRequest(
  agent: AgentNode,
  settings: RequestSettings,
  ctx: InvocationContext,
  cbCtx: CallbackContext,
  tools: readonly FunctionTool[],
): Promise<LlmRequest> {
  const { instruction } = settings;
  const own =
    typeof instruction === "function"
      ? await instruction(cbCtx)
      : fillInstruction(instruction ?? "", cbCtx.state);
  const offer = transferOffer(agent);
  const systemInstruction = [own, identityInstruction(agent), offer?.instruction ?? ""]
    .filter((block) => block.trim() !== "")
    .join("\n\n");
  const declarations = tools.map((t) => t.declaration());
  if (offer) declarations.push(offer.declaration);
  return {
    systemInstruction,
    contents: buildContents(ctx.events, agent.name, {
      includeContents: settings.includeContents ?? "default",
      branch: ctx.branch,
    }),
    tools: declarations,
    config: requestConfig(settings),
  };
}

/** The agent's generation config, a fresh copy per request (callbacks may change it); an output schema asks for JSON (ADK `set_output_schema`). */
function requestConfig(settings: RequestSettings): GenerateContentConfig {
  const given = settings.generateContentConfig;
  const config: GenerateContentConfig = given === undefined ? {} : structuredClone(given);
  const schema = settings.outputJsonSchema;
  if (schema !== undefined) {
    config.responseSchema = schema;
    config.responseMimeType = "application/json";
  }
  return config;
}
