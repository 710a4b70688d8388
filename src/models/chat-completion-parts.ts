import {
  APICallError,
  InvalidResponseDataError,
  type LanguageModelV3FinishReason,
  type LanguageModelV3StreamPart,
  type SharedV3ProviderMetadata,
  type SharedV3Warning,
} from "@ai-sdk/provider";
import {
  generateId,
  isAbortError,
  type StreamingToolCallDelta,
  StreamingToolCallTracker,
} from "@ai-sdk/provider-utils";
import { createParser, type EventSourceParser } from "eventsource-parser";
import {
  type AnswerChunk,
  type ChatUsage,
  contentPieces,
  parsedChunk,
  type ToolCallDelta,
  unifiedFinishReason,
  usageOf,
} from "./chat-chunk.js";

/** What a streamed answer's parts need besides its body: where it came from, for errors, and its call's settings. */
export interface ChatStreamContext {
  url: string;
  statusCode: number;
  responseHeaders: Record<string, string>;
  requestBodyValues: unknown;
  warnings: SharedV3Warning[];
  /** The provider-options key the call used: its metadata goes back under the same key. */
  metadataKey: string;
  includeRawChunks: boolean;
}

type Enqueue = (part: LanguageModelV3StreamPart) => void;

/** A tool call delta as the SDK's tracker takes it, with the thought signature it reads back. */
interface TrackedDelta extends StreamingToolCallDelta {
  extra_content?: ToolCallDelta["extra_content"];
}

/**
 * The AI SDK stream parts of a streamed Chat Completions answer, read from its body in one stream: the
 * SDK's own reader pipes the body through five (decode, SSE, JSON, validate, convert), and each stage
 * costs a streamed call CPU in workerd (docs/benchmarks.md, issue 29). Same parts, same order, same
 * errors: test/interop/models/openai-compatible-stream.test.ts holds it to the SDK's reader.
 */
export function chatCompletionParts(
  body: ReadableStream<Uint8Array>,
  context: ChatStreamContext,
): ReadableStream<LanguageModelV3StreamPart> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let given = 0;
  let answer: AnswerParts;
  let parser: EventSourceParser;
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      answer = new AnswerParts((part) => {
        given += 1;
        controller.enqueue(part);
      }, context);
      parser = createParser({ onEvent: ({ data }) => answer.data(data) });
      controller.enqueue({ type: "stream-start", warnings: context.warnings });
    },
    async pull(controller) {
      // A read may complete no part (half an event, or `[DONE]`), and a pull that gives none is not
      // called again: read on until one is given or the body ends.
      const before = given;
      while (given === before) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (error) {
          controller.error(readFailure(error, context));
          return;
        }
        try {
          if (!read.done) parser.feed(decoder.decode(read.value, { stream: true }));
          else {
            parser.feed(decoder.decode());
            answer.end();
            controller.close();
            return;
          }
        } catch (error) {
          // A chunk the answer cannot take fails the stream; the body is given up, as the SDK's pipe does.
          await reader.cancel(error).catch(() => undefined);
          throw error;
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** A body that broke off, as the SDK reports one: a retryable call error when the network dropped it. */
function readFailure(error: unknown, context: ChatStreamContext): unknown {
  if (isAbortError(error)) return error;
  const common = { url: context.url, requestBodyValues: context.requestBodyValues };
  if (hasNetworkCode(error))
    return new APICallError({
      ...common,
      message: `Cannot connect to API: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
      statusCode: context.statusCode,
      responseHeaders: context.responseHeaders,
      isRetryable: true,
    });
  return new APICallError({
    ...common,
    message: "Failed to process successful response",
    cause: error,
    statusCode: context.statusCode,
    responseHeaders: context.responseHeaders,
  });
}

const NETWORK_CODES = new Set([
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function hasNetworkCode(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    if ("code" in current && typeof current.code === "string" && NETWORK_CODES.has(current.code)) return true;
  }
  return false;
}

/** Folds an answer's chunks into stream parts: open text/reasoning blocks, tool calls, usage, the finish. */
class AnswerParts {
  private readonly tools: StreamingToolCallTracker<TrackedDelta>;
  // A tool call's deltas wait here, by index, until one names the tool (some servers send arguments first).
  private readonly unnamed = new Map<
    number,
    { id: string | null; args: string; extra: ToolCallDelta["extra_content"] }
  >();
  private readonly named = new Set<number>();
  private finishReason: LanguageModelV3FinishReason | undefined;
  private rawFinishReason: string | undefined;
  private usage: ChatUsage;
  private first = true;
  private reasoningOpen = false;
  private textOpen = false;
  private refused = false;

  constructor(
    private readonly enqueue: Enqueue,
    private readonly context: ChatStreamContext,
  ) {
    const key = context.metadataKey;
    this.tools = new StreamingToolCallTracker<TrackedDelta>(
      { enqueue },
      {
        generateId,
        extractMetadata: (delta) => {
          const signature = delta.extra_content?.google?.thought_signature;
          return signature ? { [key]: { thoughtSignature: signature } } : undefined;
        },
        buildToolCallProviderMetadata: (metadata) => metadata,
      },
    );
  }

  /** One SSE event's data. */
  data(text: string): void {
    if (text === "[DONE]") return;
    const chunk = parsedChunk(text);
    if (this.context.includeRawChunks) this.enqueue({ type: "raw", rawValue: chunk.rawValue });
    if (!chunk.success) this.fail(chunk.error);
    else if ("error" in chunk.value) this.fail(chunk.value.error);
    else this.answer(chunk.value);
  }

  private fail(error: unknown): void {
    this.finishReason = { unified: "error", raw: undefined };
    this.enqueue({ type: "error", error });
  }

  private answer(chunk: AnswerChunk): void {
    if (this.first) {
      this.first = false;
      this.enqueue({
        type: "response-metadata",
        ...(chunk.id != null ? { id: chunk.id } : {}),
        ...(chunk.model != null ? { modelId: chunk.model } : {}),
        ...(chunk.created != null ? { timestamp: new Date(chunk.created * 1000) } : {}),
      });
    }
    if (chunk.usage != null) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice?.finish_reason != null) this.rawFinishReason = choice.finish_reason;
    const delta = choice?.delta;
    if (delta == null) return;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) this.reasoningDelta(reasoning);
    for (const piece of contentPieces(delta.content))
      if (piece.reasoning) this.reasoningDelta(piece.text);
      else this.textDelta(piece.text);
    if (delta.refusal != null && delta.refusal !== "") {
      this.refused = true;
      this.textDelta(delta.refusal);
    }
    if (delta.tool_calls != null && delta.tool_calls.length > 0) {
      this.closeReasoning();
      for (const call of delta.tool_calls) this.toolCallDelta(call);
    }
  }

  private reasoningDelta(delta: string): void {
    this.closeText();
    if (!this.reasoningOpen) this.enqueue({ type: "reasoning-start", id: "reasoning-0" });
    this.reasoningOpen = true;
    this.enqueue({ type: "reasoning-delta", id: "reasoning-0", delta });
  }

  private textDelta(delta: string): void {
    this.closeReasoning();
    if (!this.textOpen) this.enqueue({ type: "text-start", id: "txt-0" });
    this.textOpen = true;
    this.enqueue({ type: "text-delta", id: "txt-0", delta });
  }

  private closeReasoning(): void {
    if (this.reasoningOpen) this.enqueue({ type: "reasoning-end", id: "reasoning-0" });
    this.reasoningOpen = false;
  }

  private closeText(): void {
    if (this.textOpen) this.enqueue({ type: "text-end", id: "txt-0" });
    this.textOpen = false;
  }

  private toolCallDelta(delta: ToolCallDelta): void {
    const index = delta.index;
    if (index == null || this.named.has(index)) {
      this.tools.processDelta({
        index: index ?? null,
        id: delta.id ?? null,
        function: { name: delta.function.name ?? null, arguments: delta.function.arguments ?? null },
        extra_content: delta.extra_content,
      });
      return;
    }
    const waiting = this.unnamed.get(index) ?? { id: null, args: "", extra: null };
    this.unnamed.set(index, waiting);
    waiting.id ??= delta.id ?? null;
    waiting.extra ??= delta.extra_content ?? null;
    waiting.args += delta.function.arguments ?? "";
    const name = delta.function.name;
    if (name == null) return;
    this.tools.processDelta({
      index,
      id: waiting.id,
      function: { name, arguments: waiting.args },
      extra_content: waiting.extra,
    });
    this.unnamed.delete(index);
    this.named.add(index);
  }

  /** The body ended: close what is open, finish the tool calls, and give the finish part. */
  end(): void {
    this.closeReasoning();
    this.closeText();
    for (const [index, waiting] of this.unnamed)
      this.tools.processDelta({ index, id: waiting.id, function: { arguments: waiting.args } });
    this.unnamed.clear();
    this.tools.flush();
    if (this.rawFinishReason !== undefined)
      this.finishReason = {
        unified: unifiedFinishReason(this.rawFinishReason, this.refused),
        raw: this.rawFinishReason,
      };
    if (this.finishReason === undefined) {
      this.finishReason = { unified: "error", raw: undefined };
      this.enqueue({
        type: "error",
        error: new InvalidResponseDataError({
          data: undefined,
          message: "Response stream ended without a finish reason.",
        }),
      });
    }
    this.enqueue({
      type: "finish",
      finishReason: this.finishReason,
      usage: usageOf(this.usage),
      providerMetadata: this.metadata(),
    });
  }

  private metadata(): SharedV3ProviderMetadata {
    const details = this.usage?.completion_tokens_details;
    const mine: Record<string, number> = {};
    if (details?.accepted_prediction_tokens != null)
      mine.acceptedPredictionTokens = details.accepted_prediction_tokens;
    if (details?.rejected_prediction_tokens != null)
      mine.rejectedPredictionTokens = details.rejected_prediction_tokens;
    return { [this.context.metadataKey]: mine };
  }
}
