import * as z from "zod";
import type { Event } from "../core/event.js";
import { isFinalResponse } from "../core/event.js";
import { type GenerateContentConfig, GenerateContentConfigSchema } from "../core/generate-content-config.js";
import type { ModelSpec, RetryPolicy } from "../core/llm.js";
import { type SharedScope, unionScopes } from "../core/state.js";
import type { TransferPolicy } from "../router/agent-node.js";
import { BaseAgent } from "./base-agent.js";
import type { AfterModelCallback, ModelErrorCallback, OneOrMany } from "./callbacks.js";
import { type FinishTaskTool, finishTaskTool } from "./finish-task-tool.js";
import type { FunctionTool } from "./function-tool.js";
import type { BuiltInCodeExecutor } from "./gemini-tools.js";
import type { InvocationContext } from "./invocation-context.js";
import type { RequestSettings } from "./llm-request-builder.js";
import { runLlmStep } from "./llm-step.js";
import {
  type AgentTools,
  agentTools,
  type ModelAgentConfig,
  transferPolicyOf,
} from "./model-agent-config.js";
import { requestToolsOf } from "./request-tool.js";
import { settingsScopes } from "./state-scopes.js";

export type { InstructionProvider } from "./model-agent-config.js";

export interface LlmAgentConfig extends ModelAgentConfig {
  /** A `provider:model` string (`openai:gpt-4.1-mini`, `demo:`…) or an AI SDK `LanguageModel`. Inherited from the nearest ancestor when omitted. */
  model?: ModelSpec;
  /** Writes this agent's final text to `state[outputKey]` on the event that carries it (the parsed object with `outputSchema`). */
  outputKey?: string;
  /**
   * Sampling and output settings for every model call (ADK `generate_content_config`): `temperature`,
   * `topP`, `topK`, `maxOutputTokens`, `stopSequences`, `seed`, `presencePenalty`, `frequencyPenalty`,
   * `responseMimeType: "application/json"` and `responseSchema` (JSON mode). Unknown fields are refused.
   */
  generateContentConfig?: GenerateContentConfig;
  /** The agent answers JSON matching this schema (JSON mode); `outputKey` stores the parsed value, `AgentTool` returns it. */
  outputSchema?: z.ZodType;
  /** The arguments an `AgentTool` wrapping this agent takes (instead of `{ request: string }`). */
  inputSchema?: z.ZodObject;
  /** Model-call retries on 408, 429, 5xx and network errors. Default `{ attempts: 3, … }`. */
  retry?: Partial<RetryPolicy>;
  afterModel?: OneOrMany<AfterModelCallback>;
  onModelError?: OneOrMany<ModelErrorCallback>;
  /** ADK `code_executor`: Gemini runs the code it writes (`{"codeExecution": {}}`); Gemini 2+ models only. */
  codeExecutor?: BuiltInCodeExecutor;
  /**
   * ADK 2.x delegation mode. `"chat"` (default) converses and transfers. `"task"` and `"single_turn"` work on
   * a delegated task and end it with the `finish_task` tool, whose arguments (its `outputSchema`, or
   * `{result}`) are the task's output: as a workflow node, its output.
   */
  mode?: "chat" | "task" | "single_turn";
}

/**
 * An agent driven by a model: it builds a request from the session, calls the model, runs tools, and
 * hands off with `transfer_to_agent` (ADK's LlmAgent with AutoFlow).
 * @example
 * const root = new LlmAgent({ name: "concierge", model: "demo:", instruction: "Route the user.",
 *   subAgents: [billing, support] });
 */
export class LlmAgent extends BaseAgent {
  readonly transferPolicy: TransferPolicy;
  readonly config: Readonly<LlmAgentConfig>;
  readonly transferTool: FunctionTool;
  /** The agent's tools by name; `transfer_to_agent` is always known, so a call to it is validated, never "not found". */
  readonly toolsByName: ReadonlyMap<string, FunctionTool>;
  /** Its tools and toolsets as given, resolved for each step by `stepTools`. */
  readonly tools: AgentTools;
  /** The validated `generateContentConfig` (empty when none was given). */
  readonly generateContentConfig: GenerateContentConfig;
  /** `outputSchema` as JSON Schema, what the model is asked to follow. */
  readonly outputJsonSchema: Record<string, unknown> | undefined;
  /** What each step's request is built from: the config with its validated forms (built once, not per step). */
  readonly requestSettings: RequestSettings;
  /** `finish_task`, for an agent in `task` or `single_turn` mode (ADK `finishTaskTool`). */
  readonly finishTaskTool: FinishTaskTool | undefined;

  constructor(config: LlmAgentConfig) {
    super(config);
    this.config = config;
    const parsed = GenerateContentConfigSchema.safeParse(config.generateContentConfig ?? {});
    if (!parsed.success) {
      throw new TypeError(
        `LlmAgent "${config.name}": invalid generateContentConfig: ${z.prettifyError(parsed.error)}`,
      );
    }
    this.generateContentConfig = parsed.data;
    this.outputJsonSchema =
      config.outputSchema === undefined
        ? undefined
        : z.toJSONSchema(config.outputSchema, { target: "draft-7", io: "output" });
    const delegated = config.mode === "task" || config.mode === "single_turn";
    this.finishTaskTool = delegated ? finishTaskTool(config.outputSchema) : undefined;
    const withFinish = this.finishTaskTool ? [...(config.tools ?? []), this.finishTaskTool] : config.tools;
    this.requestSettings = {
      ...config,
      tools: withFinish,
      generateContentConfig: this.generateContentConfig,
      // A task's output goes in `finish_task`'s arguments, not in a JSON answer (ADK).
      outputJsonSchema: delegated ? undefined : this.outputJsonSchema,
    };
    this.transferPolicy = transferPolicyOf(config);
    const tools = agentTools(this, withFinish);
    this.transferTool = tools.transferTool;
    this.toolsByName = tools.toolsByName;
    this.tools = tools;
  }

  /** The model of this agent or of its nearest LlmAgent ancestor. */
  get resolvedModel(): ModelSpec | undefined {
    for (let a: BaseAgent | undefined = this; a; a = a.parentAgent) {
      if (a instanceof LlmAgent && a.config.model !== undefined) return a.config.model;
    }
    return undefined;
  }

  /**
   * Throws a `BatonError("invalid_config")` when a request tool or the code executor cannot run on this
   * agent's model (Gemini's built-in tools on a non-Gemini model). `defineApp` calls it for every agent.
   */
  checkToolModels(): void {
    const model = this.resolvedModel;
    const codeExecutor = this.config.codeExecutor;
    for (const tool of [...(codeExecutor ? [codeExecutor] : []), ...requestToolsOf(this.config.tools)]) {
      tool.checkModel?.(model, this.name);
    }
  }

  /** Its callbacks or instruction function (both, unless declared), its instruction template, output key and tools. */
  override sharedScopes(): readonly SharedScope[] {
    if (!this.runsBody(LlmAgent.prototype.runImpl)) return super.sharedScopes();
    const c = this.config;
    const provider = typeof c.instruction === "function" ? c.instruction : undefined;
    const callbacks = [c.beforeModel, c.afterModel, c.onModelError, c.beforeTool, c.afterTool, c.onToolError];
    return unionScopes(this.callbackScopes(provider, ...callbacks), settingsScopes(c));
  }

  /** Steps until one ends on a final, partial or no event (ADK `BaseLlmFlow.run_async`). */
  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    for (;;) {
      let last: Event | undefined;
      for await (const event of runLlmStep(this, ctx)) {
        last = event;
        yield event;
      }
      if (last === undefined || isFinalResponse(last) || last.partial || ctx.endInvocation) return;
    }
  }
}
