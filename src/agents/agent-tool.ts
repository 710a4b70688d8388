import * as z from "zod";
import type { Content } from "../core/content.js";
import type { ToolDeclaration } from "../core/llm.js";
import type { SharedScope } from "../core/state.js";
import type { BaseAgent } from "./base-agent.js";
import type { ToolContext } from "./callback-context.js";
import { runDetached } from "./detached-run.js";
import type { FunctionTool } from "./function-tool.js";
import { LlmAgent } from "./llm-agent.js";
import { treeScopes } from "./state-scopes.js";
import { parseStructuredOutput } from "./structured-output.js";

export interface AgentToolConfig {
  /** The agent to call. It runs outside the tree, so it needs a model of its own. */
  agent: BaseAgent;
  /** The caller stops at the tool's response instead of asking its model to summarise it (ADK `skip_summarization`). */
  skipSummarization?: boolean;
}

type RunResult = { ok: true; value: unknown } | { ok: false; error: string };

/** ADK keeps its own `_adk…` bookkeeping keys out of the agent's session. */
const INTERNAL_STATE = "_adk";

/**
 * An agent used as a tool (ADK `AgentTool`): the model calls it with `{request}` (or the agent's
 * `inputSchema`), the agent runs once on an in-memory session seeded with the caller's state, its state
 * writes are forwarded to the caller's function response, and its last answer is the tool's result:
 * the text, or the parsed object when the agent has an `outputSchema`.
 * @example
 * const root = new LlmAgent({ name: "root", tools: [new AgentTool({ agent: summarizer })] });
 */
export class AgentTool implements FunctionTool {
  readonly name: string;
  readonly description: string;
  readonly isLongRunning = false;
  readonly agent: BaseAgent;
  readonly skipSummarization: boolean;

  constructor(config: AgentToolConfig) {
    this.agent = config.agent;
    this.name = config.agent.name;
    this.description = config.agent.description;
    this.skipSummarization = config.skipSummarization ?? false;
  }

  /** The agent runs on a copy of the caller's state and its writes come back: it touches what its tree may. */
  get stateScopes(): readonly SharedScope[] {
    return treeScopes(this.agent);
  }

  private get inputSchema(): z.ZodObject | undefined {
    return this.agent instanceof LlmAgent ? this.agent.config.inputSchema : undefined;
  }

  declaration(): ToolDeclaration {
    const input = this.inputSchema;
    const parameters = input
      ? z.toJSONSchema(input, { target: "draft-7", io: "input" })
      : { type: "object", properties: { request: { type: "string" } }, required: ["request"] };
    return { name: this.name, description: this.description, parameters };
  }

  async run(args: Record<string, unknown>, ctx: ToolContext): Promise<RunResult> {
    const message = this.message(args);
    if (!message.ok) return message;
    if (this.skipSummarization) ctx.actions.skipSummarization = true;
    const state = Object.fromEntries(
      Object.entries(ctx.state.toObject()).filter(([key]) => !key.startsWith(INTERNAL_STATE)),
    );
    let last: Content | undefined;
    for await (const event of runDetached(this.agent, ctx.invocation, message.value, state, ctx.span)) {
      if (event.partial) continue;
      for (const [key, value] of Object.entries(event.actions.stateDelta)) ctx.state.set(key, value);
      if (event.content) last = event.content;
    }
    const text = (last?.parts ?? [])
      .filter((p) => p.text && !p.thought)
      .map((p) => p.text)
      .join("\n");
    const output = this.agent instanceof LlmAgent ? this.agent.config.outputSchema : undefined;
    if (output === undefined || text === "") return { ok: true, value: text };
    return { ok: true, value: parseStructuredOutput(this.agent.name, output, text) };
  }

  /** The user message the agent gets: the `request` text, or the validated input as JSON. */
  private message(
    args: Record<string, unknown>,
  ): { ok: true; value: Content } | { ok: false; error: string } {
    const input = this.inputSchema;
    let text: string;
    if (input) {
      const parsed = input.safeParse(args);
      if (!parsed.success) {
        return { ok: false, error: `Invalid arguments for ${this.name}: ${z.prettifyError(parsed.error)}` };
      }
      text = JSON.stringify(parsed.data);
    } else if (typeof args.request === "string") text = args.request;
    else return { ok: false, error: `Invalid arguments for ${this.name}: "request" must be a string.` };
    return { ok: true, value: { role: "user", parts: [{ text }] } };
  }
}
