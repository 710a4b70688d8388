import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { toCallOptions } from "./convert.js";
import { finalResponse, partFromOutput } from "./convert-response.js";
import type { LlmRequest, LlmResponse, RetryPolicy } from "./llm-request.js";
import { toModelError } from "./model-error.js";
import { RetryExhausted, type RetryOptions, retryDelayMs, shouldRetry, withRetry } from "./retry.js";
import { StreamAggregator } from "./stream-aggregator.js";

/** How one model call runs. `sleep`, `random` and `now` are injected so tests control time. */
export interface CallModelOptions {
  streaming: boolean;
  retry: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  random?: () => number;
  /** Milliseconds since the epoch, for `Retry-After` HTTP dates. Defaults to `Date.now`. */
  now?: () => number;
  signal?: AbortSignal;
}

/**
 * Calls the model once (with retries) and yields ADK responses. Non-streaming: exactly one response.
 * Streaming: partial text/reasoning chunks, then one aggregated response. Retries cover 408, 429, 5xx
 * and network errors, and in streaming only until the first chunk was yielded. A failure that is final
 * is thrown as a `ModelError`.
 *
 * @example
 * for await (const response of callModel(model, request, { streaming: true, retry: DEFAULT_RETRY, sleep })) { … }
 */
export async function* callModel(
  model: LanguageModelV3,
  request: LlmRequest,
  options: CallModelOptions,
): AsyncGenerator<LlmResponse> {
  const callOptions = toCallOptions(request, options.signal);
  if (options.streaming) {
    yield* streamModel(model, callOptions, options);
    return;
  }
  let result: Awaited<ReturnType<LanguageModelV3["doGenerate"]>>;
  try {
    result = await withRetry(() => model.doGenerate(callOptions), options);
  } catch (error) {
    throw failure(error, model);
  }
  yield finalResponse({
    parts: result.content.flatMap((output) => partFromOutput(output) ?? []),
    finishReason: result.finishReason,
    usage: result.usage,
    modelVersion: result.response?.modelId ?? model.modelId,
    streaming: false,
  });
}

function failure(error: unknown, model: LanguageModelV3): Error {
  if (error instanceof RetryExhausted)
    return toModelError(error.error, { provider: model.provider, attempts: error.attempts });
  return toModelError(error, { provider: model.provider, attempts: 1 });
}

async function* streamModel(
  model: LanguageModelV3,
  callOptions: LanguageModelV3CallOptions,
  options: RetryOptions,
): AsyncGenerator<LlmResponse> {
  for (let attempt = 1; ; attempt++) {
    const aggregator = new StreamAggregator(model.modelId);
    let yielded = false;
    try {
      const { stream } = await model.doStream(callOptions);
      for await (const part of readStream(stream)) {
        const partial = aggregator.add(part);
        if (partial) {
          yielded = true;
          yield partial;
        }
      }
    } catch (error) {
      // Once a chunk reached the caller, a retry would repeat it: the error is final.
      if (yielded || !shouldRetry(error, attempt, options)) {
        throw toModelError(error, { provider: model.provider, attempts: attempt });
      }
      await options.sleep(retryDelayMs(error, attempt, options));
      continue;
    }
    yield aggregator.result();
    return;
  }
}

/** Reads a web stream part by part and cancels it if the consumer stops early. */
async function* readStream(
  stream: ReadableStream<LanguageModelV3StreamPart>,
): AsyncGenerator<LanguageModelV3StreamPart> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // A cancel that fails changes nothing for us: we are leaving either way.
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
