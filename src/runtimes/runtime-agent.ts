import { BaseAgent } from "../agents/base-agent.js";
import { CallbackContext } from "../agents/callback-context.js";
import { type BeforeModelCallback, firstResult, type OneOrMany } from "../agents/callbacks.js";
import type { FunctionTool } from "../agents/function-tool.js";
import { handOff } from "../agents/hand-off.js";
import { editableContents } from "../agents/history.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import { buildLlmRequest } from "../agents/llm-request-builder.js";
import {
  type AgentTools,
  agentTools,
  type ModelAgentConfig,
  stepTools,
  transferPolicyOf,
} from "../agents/model-agent-config.js";
import { writeOutputKey } from "../agents/output-key.js";
import { settingsScopes } from "../agents/state-scopes.js";
import { resumeConfirmedCalls } from "../agents/tool-execution.js";
import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import type { LlmResponse, ModelObject, ModelSpec } from "../core/llm.js";
import type { RunServices } from "../core/ports.js";
import { type SharedScope, unionScopes } from "../core/state.js";
import type { TransferPolicy } from "../router/agent-node.js";
import { resolveTransfer } from "../transfer/resolve-transfer.js";
import type { AgentRuntime } from "./agent-runtime.js";
import { stepEvents } from "./step-events.js";
import { StepSpans } from "./step-spans.js";
import { TurnRecorder } from "./turn-recorder.js";

/** A runtime's model through the invocation's model port: the providers the Worker or runner registered. */
function resolveModel(services: RunServices, spec: ModelSpec): ModelObject {
  if (typeof spec !== "string") return spec;
  if (!services.models.resolve)
    throw new BatonError(
      "MODEL_CONFIG",
      `Model "${spec}" cannot be resolved for a runtime: services.models has no resolve (use aiSdkModelPort, or give the runtime a model object).`,
    );
  return services.models.resolve(spec, services.env);
}

export interface RuntimeAgentConfig extends ModelAgentConfig {
  /** The foreign loop that runs this agent's turn: `aiSdkRuntime(…)` or `piRuntime(…)` from `@baton-agents/core/pi`. */
  runtime: AgentRuntime;
  /** Runs once per turn before the runtime starts; it may edit the request (drop tools, change the prompt) or answer instead. */
  beforeModel?: OneOrMany<BeforeModelCallback>;
}

/**
 * A node of the tree whose turn runs in a foreign agent loop (AI SDK, pi-agent-core) yet keeps ADK's
 * transfer semantics: it is offered `transfer_to_agent` and the transfer instruction like an LlmAgent,
 * its loop stops when it transfers, router text is dropped, and the target runs next in the same
 * invocation. It is transferable like an LlmAgent (it has a transfer policy), so routing treats it alike.
 * @example
 * const root = new RuntimeAgent({ name: "root", runtime: aiSdkRuntime({ model: openai("gpt-4.1-mini") }),
 *   instruction: "Route the user.", subAgents: [billing] });
 */
export class RuntimeAgent extends BaseAgent {
  readonly transferPolicy: TransferPolicy;
  readonly config: Readonly<RuntimeAgentConfig>;
  /** The agent's tools by name, `transfer_to_agent` included. */
  readonly toolsByName: ReadonlyMap<string, FunctionTool>;
  /** Its tools and toolsets as given, resolved for each turn by `stepTools`. */
  readonly tools: AgentTools;

  constructor(config: RuntimeAgentConfig) {
    super(config);
    this.config = config;
    this.transferPolicy = transferPolicyOf(config);
    this.tools = agentTools(this, config.tools);
    this.toolsByName = this.tools.toolsByName;
  }

  /** As an LlmAgent: callbacks, instruction, output key and tools; the runtime itself never sees state. */
  override sharedScopes(): readonly SharedScope[] {
    if (!this.runsBody(RuntimeAgent.prototype.runImpl)) return super.sharedScopes();
    const c = this.config;
    const provider = typeof c.instruction === "function" ? c.instruction : undefined;
    const callbacks = [c.beforeModel, c.beforeTool, c.afterTool, c.onToolError];
    return unionScopes(this.callbackScopes(provider, ...callbacks), settingsScopes(c));
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    const offered = await stepTools(this.tools, ctx);
    const confirmed = await resumeConfirmedCalls(ctx, this, offered.byName, this.config);
    if (confirmed) {
      yield confirmed;
      if (confirmed.actions.transferToAgent) return yield* this.handOffTo(ctx, confirmed);
    }
    const cbCtx = new CallbackContext(ctx);
    const request = await buildLlmRequest(this, this.config, ctx, cbCtx, undefined, offered.list);
    if (this.config.beforeModel !== undefined) request.contents = editableContents(request.contents);
    const replaced = await firstResult(this.config.beforeModel, (cb) => cb(cbCtx, request));
    if (replaced !== undefined) return yield* this.replacedTurn(ctx, cbCtx, replaced);
    // Each of the loop's model calls counts against `maxLlmCalls`, as an LlmAgent's do (ADK-SEMANTICS §7.1):
    // the first before the loop starts, each next one when `endsLoop` lets the loop go on; the loop is
    // ended before a call the limit has no room for.
    if (!ctx.takeLlmCall()) throw ctx.llmCallsLimitError();
    const recorder = new TurnRecorder(ctx, this, offered.byName, this.config);
    const pending = { ...cbCtx.state.delta };
    let transfer: Event | undefined;
    let limitReached = false;
    const steps = this.config.runtime.run({
      systemPrompt: request.systemInstruction,
      history: request.contents,
      tools: recorder.runtimeTools(request.tools),
      endsLoop: (results) => {
        if (recorder.endsLoop(results)) return true;
        // Tool results go back to the model in one more call: counted now, refused past the limit.
        if (results.length > 0 && !ctx.takeLlmCall()) limitReached = true;
        return limitReached;
      },
      env: ctx.services.env,
      resolveModel: (spec) => resolveModel(ctx.services, spec),
      signal: ctx.runConfig.signal,
    });
    const spans = new StepSpans(ctx, this.config.runtime.kind, request);
    for await (const step of steps) {
      if (recorder.failure !== undefined) break;
      const events = stepEvents(ctx, step, recorder, { outputKey: this.config.outputKey, pending });
      spans.record(step, events);
      for (const event of events) {
        if (event.actions.transferToAgent) transfer = event;
        yield event;
      }
    }
    if (recorder.failure !== undefined) throw recorder.failure;
    if (transfer) yield* this.handOffTo(ctx, transfer);
    else if (limitReached) throw ctx.llmCallsLimitError();
  }

  /** After the stored event that carries the transfer: the target runs next, through the shared hand-off. */
  private async *handOffTo(ctx: InvocationContext, stored: Event): AsyncGenerator<Event> {
    // The tool executor accepted only a current target, so this resolution gives the target itself.
    const transfer = resolveTransfer(this, stored.actions.transferToAgent);
    if (transfer.kind === "invalid")
      throw new BatonError("TRANSFER_TARGET_NOT_FOUND", transfer.response.error);
    yield* handOff(ctx, transfer.target);
  }

  /** A `beforeModel` answer stands for the runtime's whole turn: one model event, as ADK's short-circuit. */
  private async *replacedTurn(ctx: InvocationContext, cbCtx: CallbackContext, response: LlmResponse) {
    const event = ctx.newEvent({
      ...(response.content
        ? { content: { ...response.content, role: response.content.role ?? "model" } }
        : {}),
      ...(response.errorCode === undefined ? {} : { errorCode: response.errorCode }),
      ...(response.errorMessage === undefined ? {} : { errorMessage: response.errorMessage }),
      actions: { stateDelta: { ...cbCtx.state.delta }, artifactDelta: { ...cbCtx.artifactDelta } },
    });
    writeOutputKey(this.config.outputKey, event);
    yield event;
  }
}
