import type { BaseAgent } from "../agents/base-agent.js";
import { LlmAgent } from "../agents/llm-agent.js";
import { TRANSFER_TOOL_NAME } from "../transfer/constants.js";
import type { GraphNodeInfo } from "../workflow/graph-info.js";
import { asWorkflow } from "./workflow-shape.js";

/** One agent (or workflow, with its graph) as ADK's dev UI reads it (`/dev/apps/:app/build_graph`). */
export type AgentInfo = GraphNodeInfo;

/** The user's tools and toolsets of an agent: the transfer tool is Baton's own and appears as edges instead. */
export function toolNamesOf(agent: BaseAgent): string[] {
  if (!(agent instanceof LlmAgent)) return [];
  return agent.tools.entries.map((entry) => entry.name).filter((name) => name !== TRANSFER_TOOL_NAME);
}

/** A model string as written, or the provider's model id for an AI SDK `LanguageModel` object. */
export function modelNameOf(agent: BaseAgent): string | undefined {
  if (!(agent instanceof LlmAgent)) return undefined;
  const model = agent.resolvedModel;
  if (model === undefined) return undefined;
  return typeof model === "string" ? model : `${model.provider}:${model.modelId}`;
}

/** The tree from `agent` down, in the shape of adk-devtools' `serializeAgent`. */
export function agentInfo(agent: BaseAgent): AgentInfo {
  const workflow = asWorkflow(agent);
  if (workflow) return workflow.graphInfo(agentInfo);
  const tools = toolNamesOf(agent).map((name) => ({ name, type: "tool" as const }));
  const model = modelNameOf(agent);
  return {
    name: agent.name,
    type: "agent",
    ...(agent.description ? { description: agent.description } : {}),
    ...(model === undefined ? {} : { model }),
    ...(tools.length > 0 ? { tools } : {}),
    ...(agent.subAgents.length > 0 ? { sub_agents: agent.subAgents.map(agentInfo) } : {}),
  };
}

/** `GET /dev/apps/:app/build_graph`: `{name, root_agent}`. */
export const appInfo = (name: string, root: BaseAgent) => ({ name, root_agent: agentInfo(root) });
