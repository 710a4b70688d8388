import * as z from "zod";
import type { Event } from "../core/event.js";
import { isFinalResponse } from "../core/event.js";
import { type GenerateContentConfig, GenerateContentConfigSchema } from "../core/generate-content-config.js";
import type { ModelSpec, RetryPolicy } from "../core/llm.js";
import { type SharedScope, unionScopes } from "../core/state.js";
import type { TransferPolicy } from "../router/agent-node.js";
import { BaseAgent, type BaseAgentConfig } from "./base-agent.js";
import type { CallbackContext } from "./callback-context.js";
import type {
  AfterModelCallback,
  AfterToolCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  ModelErrorCallback,
  OneOrMany,
  ToolErrorCallback,
} from "./callbacks.js";
import type { FunctionTool } from "./function-tool.js";
import type { IncludeContents } from "./history.js";
import type { InvocationContext } from "./invocation-context.js";
import { runLlmStep } from "./llm-step.js";
import { settingsScopes } from "./state-scopes.js";
import { transferTool } from "./transfer-tool.js";

export type InstructionProvider = (ctx: CallbackContext) => string | Promise<string>;

export interface LlmAgentConfig extends BaseAgentConfig {
  /** A `provider:model` string (`openai:gpt-4.1-mini`, `demo:`…) or an AI SDK `LanguageModel`. Inherited from the nearest ancestor when omitted. */
  model?: ModelSpec;
  /** The system instruction. `{var}` and `{var?}` are filled from state. */
  instruction?: string | InstructionProvider;
  tools?: readonly FunctionTool[];
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
  /** `"none"`: the model sees only the current turn (ADK-SEMANTICS §3.5). */
  includeContents?: IncludeContents;
  disallowTransferToParent?: boolean;
  disallowTransferToPeers?: boolean;
  /** Model-call retries on 408, 429, 5xx and network errors. Default `{ attempts: 3, … }`. */
  retry?: Partial<RetryPolicy>;
  beforeModel?: OneOrMany<BeforeModelCallback>;
  afterModel?: OneOrMany<AfterModelCallback>;
  onModelError?: OneOrMany<ModelErrorCallback>;
  beforeTool?: OneOrMany<BeforeToolCallback>;
  afterTool?: OneOrMany<AfterToolCallback>;
  onToolError?: OneOrMany<ToolErrorCallback>;
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
  /** The validated `generateContentConfig` (empty when none was given). */
  readonly generateContentConfig: GenerateContentConfig;
  /** `outputSchema` as JSON Schema, what the model is asked to follow. */
  readonly outputJsonSchema: Record<string, unknown> | undefined;

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
    this.transferPolicy = {
      disallowTransferToParent: config.disallowTransferToParent ?? false,
      disallowTransferToPeers: config.disallowTransferToPeers ?? false,
    };
    this.transferTool = transferTool(this);
    this.toolsByName = new Map([...(config.tools ?? []), this.transferTool].map((t) => [t.name, t]));
  }

  /** The model of this agent or of its nearest LlmAgent ancestor. */
  get resolvedModel(): ModelSpec | undefined {
    for (let a: BaseAgent | undefined = this; a; a = a.parentAgent) {
      if (a instanceof LlmAgent && a.config.model !== undefined) return a.config.model;
    }
    return undefined;
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
