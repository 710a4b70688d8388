import type { InvocationContext } from "../agents/invocation-context.js";
import { modelResponseAttributes, modelSpanAttributes } from "../agents/span-attributes.js";
import type { Event } from "../core/event.js";
import type { LlmRequest } from "../core/llm.js";
import { ATTR, type SpanAttributes } from "../core/trace.js";
import type { RuntimeStep } from "./agent-runtime.js";

/**
 * One `call_llm` span per step of a foreign loop. The loop reports a step only when it is done, so a
 * span runs from the previous report (or the loop's start) to this one: the model call and the step's
 * tool calls, whose own `execute_tool` spans sit beside it under the agent's span.
 */
export class StepSpans {
  #since: number;
  #first = true;

  constructor(
    private readonly ctx: InvocationContext,
    private readonly runtimeKind: string,
    private readonly request: LlmRequest,
  ) {
    this.#since = ctx.services.clock.now();
  }

  /** Records the step; the first of `events` (its model event) is the one the span names. */
  record(step: RuntimeStep, events: readonly Event[]): void {
    const { ctx } = this;
    if (!ctx.recorder.recording) return; // nobody reads the trace (decision 041): nothing to build
    const attributes: SpanAttributes = {
      ...modelSpanAttributes(ctx, undefined, events[0]?.id ?? "", this.request),
      [ATTR.system]: this.runtimeKind,
    };
    // The request is the same for every step of the loop: it is kept on the first step's span only.
    if (!this.#first) delete attributes[ATTR.llmRequest];
    this.#first = false;
    delete attributes[ATTR.requestModel]; // the runtime holds the model; Baton never sees its id
    const span = ctx.recorder.start("call_llm", attributes, ctx.span, this.#since);
    const response = {
      content: { role: "model", parts: [...step.parts] },
      ...(step.finishReason ? { finishReason: step.finishReason } : {}),
      ...(step.usageMetadata ? { usageMetadata: step.usageMetadata } : {}),
    };
    const failed = step.errorMessage === undefined ? undefined : new Error(step.errorMessage);
    span.end(modelResponseAttributes(response), failed);
    this.#since = ctx.services.clock.now();
  }
}
