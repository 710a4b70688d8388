import type { LanguageModelV3, LanguageModelV3Content } from "@ai-sdk/provider";
import type { Part } from "../core/content.js";
import type { LlmRequest, LlmResponse, RetryPolicy } from "../core/llm.js";
import { toCallOptions } from "./convert.js";
import { finalResponse, groundingMetadataOf, partFromOutput } from "./convert-response.js";
import { retried, single, withRetries } from "./retry.js";
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

/** The response's parts in ADK form, those that have one (a loop: this runs on every model call). */
function partsOf(content: readonly LanguageModelV3Content[]): Part[] {
  const parts: Part[] = [];
  for (const output of content) {
    const part = partFromOutput(output);
    if (part) parts.push(part);
  }
  return parts;
}

/**
 * Calls the model once (with retries) and yields ADK responses. Non-streaming: exactly one response.
 * Streaming: partial text/reasoning chunks, then one aggregated response. Retries cover 408, 429, 5xx
 * and network errors, and in streaming only until the first chunk was yielded. A failure that is final
 * is thrown as a `BatonError` with a `MODEL_*` code.
 *
 * @example
 * for await (const response of callModel(model, request, { streaming: true, retry: DEFAULT_RETRY, sleep })) { … }
 */
export function callModel(
  model: LanguageModelV3,
  request: LlmRequest,
  options: CallModelOptions,
): AsyncIterable<LlmResponse> {
  // `options` is passed on whole, not spread: a spread would read (and so make) the turn's signal.
  const callOptions = toCallOptions(request, options);
  const { provider } = model;
  if (options.streaming) {
    return withRetries(
      async function* () {
        const aggregator = new StreamAggregator(model.modelId);
        const { stream } = await model.doStream(callOptions);
        // Leaving the loop early cancels the stream.
        for await (const part of stream) {
          const partial = aggregator.add(part);
          if (partial) yield partial;
        }
        yield aggregator.result();
      },
      options,
      provider,
    );
  }
  return single(() =>
    retried(
      async () => {
        const result = await model.doGenerate(callOptions);
        return finalResponse({
          parts: partsOf(result.content),
          finishReason: result.finishReason,
          usage: result.usage,
          modelVersion: result.response?.modelId ?? model.modelId,
          streaming: false,
          groundingMetadata: groundingMetadataOf(result.providerMetadata),
        });
      },
      options,
      provider,
    ),
  );
}
