import * as z from "zod";

/** OpenTelemetry attribute values (strings, numbers, booleans and arrays of strings). */
export const SpanValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type SpanValue = z.infer<typeof SpanValueSchema>;
export type SpanAttributes = Record<string, SpanValue>;

/** One finished span of a turn. Times are epoch milliseconds from the run's clock. */
export const TraceSpanSchema = z.object({
  name: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional(),
  startMs: z.number(),
  endMs: z.number(),
  attributes: z.record(z.string(), SpanValueSchema),
  /** Set when the work the span covers failed. */
  error: z.string().optional(),
});
export type TraceSpan = z.infer<typeof TraceSpanSchema>;

/**
 * What one invocation recorded: its spans, one trace per invocation (ADK's dev UI groups by trace id).
 * Stored with the session when the turn ends, read back by the dev UI, exported over OTLP when configured.
 */
export const TurnTraceSchema = z.object({
  traceId: z.string(),
  invocationId: z.string(),
  spans: z.array(TraceSpanSchema),
});
export type TurnTrace = z.infer<typeof TurnTraceSchema>;

/** Bounds that keep traces cheap enough to store with every turn (decision 014). */
export const TRACE_LIMITS = {
  /** Spans kept per turn; later ones are counted, not kept. */
  spans: 200,
  /** Characters kept of one string attribute (a model request, a tool result). */
  attributeChars: 2_000,
  /** Bytes of one turn's trace as JSON; past it the request/response payloads are dropped. */
  bytes: 48 * 1024,
  /** Turns whose traces a session keeps; older ones are deleted as new ones are written. */
  turnsPerSession: 50,
} as const;

/**
 * A span being recorded. Ending twice keeps the first end; `set` still adds attributes after the end
 * (until the trace is finished), so a tool span can name the response event made after the tool returned.
 */
export interface OpenSpan {
  readonly spanId: string;
  set(attributes: SpanAttributes): void;
  end(attributes?: SpanAttributes, error?: unknown): void;
}

/** Where agents record spans; the runner's recorder implements it, `NO_TRACE` records nothing. */
export interface SpanRecorder {
  /**
   * Whether spans are kept: when `false` (`NO_TRACE`, a turn whose trace nobody keeps) a caller skips
   * building attributes that cost something (a logged model request, a tool's arguments as JSON).
   */
  readonly recording: boolean;
  /** `startMs` backdates the span (work whose start is only known afterwards); default: now. */
  start(name: string, attributes: SpanAttributes, parent?: OpenSpan, startMs?: number): OpenSpan;
}

const closed: OpenSpan = { spanId: "", set: () => undefined, end: () => undefined };
export const NO_TRACE: SpanRecorder = { recording: false, start: () => closed };

/** What a span that records nothing is given: one shared, empty map. */
export const NO_ATTRIBUTES: SpanAttributes = Object.freeze({});

/** The attribute names ADK writes and its dev UI reads (OpenTelemetry GenAI conventions plus ADK's own). */
export const ATTR = {
  operation: "gen_ai.operation.name",
  conversation: "gen_ai.conversation.id",
  agentName: "gen_ai.agent.name",
  agentDescription: "gen_ai.agent.description",
  system: "gen_ai.system",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  invocationId: "gcp.vertex.agent.invocation_id",
  sessionId: "gcp.vertex.agent.session_id",
  eventId: "gcp.vertex.agent.event_id",
  llmRequest: "gcp.vertex.agent.llm_request",
  llmResponse: "gcp.vertex.agent.llm_response",
  toolArgs: "gcp.vertex.agent.tool_call_args",
  toolResponse: "gcp.vertex.agent.tool_response",
  transferTo: "baton.transfer.to",
  retries: "baton.model.retries",
  modelMs: "baton.model.duration_ms",
  rowsWritten: "baton.storage.rows_written",
  bytesWritten: "baton.storage.bytes_written",
  traceBytes: "baton.storage.trace_bytes",
  truncated: "baton.trace.truncated",
  errorCode: "baton.error.code",
  mcpServer: "baton.mcp.server",
} as const;

/**
 * The trace as a store returns it: its root span (else its first) also carries `baton.storage.trace_bytes`,
 * the UTF-8 bytes of the stored trace, which the store knows when it reads it back (decision 014).
 */
export function withStoredSize(trace: TurnTrace, bytes: number): TurnTrace {
  const root = rootSpan(trace);
  return {
    ...trace,
    spans: trace.spans.map((span) =>
      span === root ? { ...span, attributes: { ...span.attributes, [ATTR.traceBytes]: bytes } } : span,
    ),
  };
}

/** The span a trace's own attributes go on: its root (the one without a parent), else its first. */
export const rootSpan = (trace: TurnTrace): TraceSpan | undefined =>
  trace.spans.find((s) => s.parentSpanId === undefined) ?? trace.spans[0];
