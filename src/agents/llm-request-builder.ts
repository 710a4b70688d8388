import type { GenerateContentConfig } from "../core/generate-content-config.js";
import type { LlmRequest, ModelSpec } from "../core/llm.js";
import { hasKeys } from "../core/state.js";
import type { AgentNode } from "../router/agent-node.js";
import { identityInstruction } from "../transfer/agent-identity.js";
import { transferOffer } from "../transfer/transfer-offer.js";
import type { CallbackContext } from "./callback-context.js";
import type { FunctionTool } from "./function-tool.js";
import { modelNameOf } from "./gemini-tools.js";
import { buildContents, type IncludeContents } from "./history.js";
import { fillInstruction } from "./instruction-template.js";
import type { InvocationContext } from "./invocation-context.js";
import type { InstructionProvider } from "./model-agent-config.js";
import { functionToolsOf, type RequestTool, requestToolsOf, type ToolUnion } from "./request-tool.js";

/** What a request is built from besides the agent's place in the tree: LlmAgent's and RuntimeAgent's config. */
export interface RequestSettings {
  instruction?: string | InstructionProvider | undefined;
  tools?: readonly ToolUnion[] | undefined;
  /** ADK's `code_executor`: Gemini's built-in one is the only kind (`BuiltInCodeExecutor`). */
  codeExecutor?: RequestTool | undefined;
  includeContents?: IncludeContents | undefined;
  /** Validated generation settings; a fresh copy goes on each request (callbacks may change it). */
  generateContentConfig?: GenerateContentConfig | undefined;
  /** An output schema as JSON Schema: the request then asks for JSON (ADK `set_output_schema`). */
  outputJsonSchema?: Record<string, unknown> | undefined;
}

/**
 * One step's request: the system instruction in ADK's order (the agent's instruction, its identity, the
 * transfer block, joined by blank lines), filtered history, tools (the transfer tool first, as ADK's
 * transfer request processor adds it before the agent's tools). Shared by every model-driven agent kind
 * (LlmAgent, RuntimeAgent). Then, as ADK's request processors and tools do, the code executor and each
 * request tool in list order change the request (Gemini's built-in tools, few-shot examples). `tools` are
 * the step's callable tools, toolsets resolved (`stepTools`).
 */
export async function buildLlmRequest(
  agent: AgentNode,
  settings: RequestSettings,
  ctx: InvocationContext,
  cbCtx: CallbackContext,
  model?: ModelSpec,
  tools: readonly FunctionTool[] = functionToolsOf(settings.tools),
): Promise<LlmRequest> {
  const { instruction } = settings;
  const own =
    typeof instruction === "function"
      ? await instruction(cbCtx)
      : fillInstruction(instruction ?? "", cbCtx.state);
  const offer = transferOffer(agent);
  const systemInstruction = joinBlocks(own, identityInstruction(agent), offer?.instruction ?? "");
  const declared = tools.map((t) => t.declaration());
  const request: LlmRequest = {
    systemInstruction,
    contents: buildContents(ctx.events, agent.name, {
      includeContents: settings.includeContents ?? "default",
      branch: ctx.branch,
      isolationScope: ctx.isolationScope,
    }),
    tools: [...(offer ? [offer.declaration] : []), ...declared],
    config: requestConfig(settings),
  };
  const processors = [
    ...(settings.codeExecutor ? [settings.codeExecutor] : []),
    ...requestToolsOf(settings.tools),
  ];
  const toolCtx = { modelName: modelNameOf(model), userContent: ctx.userContent, callbackContext: cbCtx };
  for (const tool of processors) await tool.processRequest(request, toolCtx);
  for (const tool of tools) {
    // Most tools change no request: only a promise is awaited.
    const processing = tool.processRequest?.(request, toolCtx);
    if (processing) await processing;
  }
  return request;
}

/** The non-blank blocks, joined by blank lines (no arrays: this runs on every model call). */
function joinBlocks(first: string, second: string, third: string): string {
  let text = "";
  for (const block of [first, second, third]) {
    if (block.trim() === "") continue;
    text = text === "" ? block : `${text}\n\n${block}`;
  }
  return text;
}

/** The agent's generation config, a fresh copy per request (callbacks may change it); an output schema asks for JSON (ADK `set_output_schema`). */
function requestConfig(settings: RequestSettings): GenerateContentConfig {
  const given = settings.generateContentConfig;
  // Most agents set nothing: an empty config needs no clone (`structuredClone` is a native round trip).
  const config: GenerateContentConfig = given === undefined || !hasKeys(given) ? {} : structuredClone(given);
  const schema = settings.outputJsonSchema;
  if (schema !== undefined) {
    config.responseSchema = schema;
    config.responseMimeType = "application/json";
  }
  return config;
}
