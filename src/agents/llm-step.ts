import { functionCallsOf } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { newEventId, newFunctionCallId } from "../core/ids.js";
import { DEFAULT_RETRY, type LlmRequest, type LlmResponse } from "../core/llm.js";
import { withLazySignal } from "../core/signal-source.js";
import { ATTR, NO_ATTRIBUTES, type OpenSpan } from "../core/trace.js";
import { resolveTransfer } from "../transfer/resolve-transfer.js";
import { CallbackContext } from "./callback-context.js";
import { firstResult } from "./callbacks.js";
import { handOff } from "./hand-off.js";
import { editableContents } from "./history.js";
import { resumeInterruptedCalls } from "./interrupted-calls.js";
import type { InvocationContext } from "./invocation-context.js";
import type { LlmAgent } from "./llm-agent.js";
import { buildLlmRequest } from "./llm-request-builder.js";
import { stepTools } from "./model-agent-config.js";
import { writeOutputKey } from "./output-key.js";
import { pluginHooks, withPlugins } from "./plugins.js";
import { modelResponseAttributes, modelSpanAttributes } from "./span-attributes.js";
import { parseStructuredOutput } from "./structured-output.js";
import { resumeConfirmedCalls, runFunctionCalls } from "./tool-execution.js";

/**
 * The model's responses for one step, after ADK's model callbacks (ADK-SEMANTICS §7.2): a list when the
 * call does not stream (one response: no generator for it to pass through), a stream when it does.
 */
async function modelResponses(
  agent: LlmAgent,
  ctx: InvocationContext,
  cbCtx: CallbackContext,
  request: LlmRequest,
  span: OpenSpan,
): Promise<readonly LlmResponse[] | AsyncIterable<LlmResponse>> {
  const { beforeModel, afterModel, onModelError } = agent.config;
  const before = withPlugins(pluginHooks(ctx, "beforeModel"), beforeModel);
  if (before.length > 0) request.contents = editableContents(request.contents);
  const replaced = before.length > 0 ? await firstResult(before, (cb) => cb(cbCtx, request)) : undefined;
  // A short-circuit skips afterModel and is not counted against the call limit.
  if (replaced !== undefined) return [replaced];
  if (!ctx.takeLlmCall()) throw ctx.llmCallsLimitError();
  const spec = agent.resolvedModel;
  if (spec === undefined) {
    throw new BatonError("MODEL_CONFIG", `Agent "${agent.name}" has no model, and neither has any ancestor.`);
  }
  const after = async (response: LlmResponse) =>
    (await firstResult(afterModel, (cb) => cb(cbCtx, response))) ?? response;
  const recover = async (error: unknown): Promise<LlmResponse> => {
    const recovered = await firstResult(onModelError, (cb) => cb(cbCtx, request, error));
    if (recovered === undefined) throw error;
    return after(recovered);
  };
  const { services, runConfig } = ctx;
  // Every retry sleeps first: counting the sleeps counts the retries, with no hook in the model code.
  let retries = 0;
  const sleep = (ms: number) => {
    span.set({ [ATTR.retries]: ++retries });
    return services.sleep(ms);
  };
  const started = services.clock.now();
  // The model's own time: the span also covers storing the events the step yields.
  const record = (response: LlmResponse) => {
    if (response.partial || !ctx.recorder.recording) return;
    const attributes = modelResponseAttributes(response);
    attributes[ATTR.modelMs] = services.clock.now() - started;
    span.set(attributes);
  };
  try {
    const callOptions = {
      streaming: runConfig.streaming,
      retry: { ...DEFAULT_RETRY, ...agent.config.retry },
      services: { ...services, sleep },
    };
    const responses = services.models.call(spec, request, withLazySignal(callOptions, "signal", runConfig));
    if (runConfig.streaming) return streamed(responses, record, after, recover);
    const answered: LlmResponse[] = [];
    for await (const response of responses) {
      record(response);
      answered.push(afterModel === undefined ? response : await after(response));
    }
    return answered;
  } catch (error) {
    return [await recover(error)];
  }
}

/** A streaming call's responses, each after the after-model callbacks; a failure midway goes to `recover`. */
async function* streamed(
  responses: AsyncIterable<LlmResponse>,
  record: (response: LlmResponse) => void,
  after: (response: LlmResponse) => Promise<LlmResponse>,
  recover: (error: unknown) => Promise<LlmResponse>,
): AsyncGenerator<LlmResponse> {
  try {
    for await (const response of responses) {
      record(response);
      yield await after(response);
    }
  } catch (error) {
    yield await recover(error);
  }
}

type ResponseFields = Pick<
  LlmResponse,
  | "finishReason"
  | "errorCode"
  | "errorMessage"
  | "usageMetadata"
  | "modelVersion"
  | "avgLogprobs"
  | "groundingMetadata"
  | "citationMetadata"
  | "customMetadata"
>;

/**
 * The response fields ADK copies onto the event as they are, those present. Spelled out field by field:
 * a loop over their names read the response through a generic keyed lookup, slow for every model event.
 */
function responseFields(r: LlmResponse): ResponseFields {
  const out: ResponseFields = {};
  if (r.finishReason !== undefined) out.finishReason = r.finishReason;
  if (r.errorCode !== undefined) out.errorCode = r.errorCode;
  if (r.errorMessage !== undefined) out.errorMessage = r.errorMessage;
  if (r.usageMetadata !== undefined) out.usageMetadata = r.usageMetadata;
  if (r.modelVersion !== undefined) out.modelVersion = r.modelVersion;
  if (r.avgLogprobs !== undefined) out.avgLogprobs = r.avgLogprobs;
  if (r.groundingMetadata !== undefined) out.groundingMetadata = r.groundingMetadata;
  if (r.citationMetadata !== undefined) out.citationMetadata = r.citationMetadata;
  if (r.customMetadata !== undefined) out.customMetadata = r.customMetadata;
  return out;
}

/** ADK drops a response that carries nothing (no content, no error): it makes no event. */
const isEmpty = (r: LlmResponse): boolean =>
  (r.content?.parts?.length ?? 0) === 0 && r.errorCode === undefined && r.errorMessage === undefined;

/**
 * One step: one model call, then the tools it asked for, then the transfer target if one was named.
 * The target runs inside this step, in the same invocation (ADK-SEMANTICS §3.4).
 */
export async function* runLlmStep(agent: LlmAgent, ctx: InvocationContext): AsyncGenerator<Event> {
  // One callback context per step: what the instruction provider and model callbacks write lands on the step's event.
  // Each of these is awaited only when it is a promise: most steps have no toolsets and nothing to resume.
  const stepped = stepTools(agent.tools, ctx);
  const offered = stepped instanceof Promise ? await stepped : stepped;
  const tools = offered.byName;
  // The user answered a confirmation: the confirmed calls run first, and the model sees their results.
  const confirming = resumeConfirmedCalls(ctx, agent, tools, agent.config);
  const resumed = confirming && (await confirming);
  if (resumed) yield resumed;
  // A resumed invocation (after a crash) answers the calls its first run left without a response.
  const answering = resumed ? undefined : resumeInterruptedCalls(ctx, agent, tools, agent.config);
  const interrupted = answering && (await answering);
  if (interrupted) yield interrupted;
  const cbCtx = new CallbackContext(ctx);
  const request = await buildLlmRequest(
    agent,
    agent.requestSettings,
    ctx,
    cbCtx,
    agent.resolvedModel,
    offered.list,
  );
  // The id of the step's next event (its partials carry it too); a new one is drawn only if one follows.
  let eventId: string | undefined = newEventId(ctx.services.ids);
  let modelEvent: Event | undefined;
  const toEvent = (response: LlmResponse): Event => {
    const parts = (response.content?.parts ?? []).map((p) =>
      p.functionCall && !p.functionCall.id && !response.partial
        ? { ...p, functionCall: { ...p.functionCall, id: newFunctionCallId(ctx.services.ids) } }
        : p,
    );
    const longRunning = parts.flatMap((p) =>
      p.functionCall?.id && tools.get(p.functionCall.name)?.isLongRunning ? [p.functionCall.id] : [],
    );
    eventId ??= newEventId(ctx.services.ids);
    const event = ctx.newEvent({
      id: eventId,
      ...(response.content ? { content: { role: response.content.role ?? "model", parts } } : {}),
      ...(response.partial ? { partial: true } : {}),
      ...responseFields(response),
      ...(longRunning.length > 0 ? { longRunningToolIds: longRunning } : {}),
    });
    if (!response.partial) {
      Object.assign(event.actions.stateDelta, cbCtx.state.delta);
      Object.assign(event.actions.artifactDelta, cbCtx.artifactDelta);
      const schema = agent.config.outputSchema;
      const parse = schema ? (text: string) => parseStructuredOutput(agent.name, schema, text) : undefined;
      writeOutputKey(agent.config.outputKey, event, parse);
      eventId = undefined;
      modelEvent = event;
    }
    return event;
  };
  const span = ctx.recorder.start(
    "call_llm",
    ctx.recorder.recording ? modelSpanAttributes(ctx, agent.resolvedModel, eventId, request) : NO_ATTRIBUTES,
    ctx.span,
  );
  try {
    for await (const response of await modelResponses(agent, ctx, cbCtx, request, span)) {
      if (isEmpty(response)) continue;
      yield toEvent(response);
    }
  } catch (error) {
    span.end({}, error);
    throw error;
  } finally {
    span.end();
  }
  const calls = functionCallsOf(modelEvent?.content);
  if (calls.length === 0) return;
  let responseEvent: Event | undefined;
  for await (const event of runFunctionCalls(ctx, agent, calls, tools, agent.config)) {
    responseEvent = event;
    yield event;
  }
  const targetName = responseEvent?.actions.transferToAgent;
  if (targetName) {
    // The executor validated the name against this agent's targets; resolving gives the target itself.
    const transfer = resolveTransfer(agent, targetName);
    if (transfer.kind === "invalid")
      throw new BatonError("TRANSFER_TARGET_NOT_FOUND", transfer.response.error);
    yield* handOff(ctx, transfer.target);
  }
}
