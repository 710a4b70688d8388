import type { SpanAttributes, TraceSpan, TurnTrace } from "../core/trace.js";
import { ATTR } from "../core/trace.js";

/** One span as ADK's `/debug/trace/session/:id` returns it (and its dev UI validates): times in ns. */
export interface AdkSpan {
  name: string;
  span_id: string;
  trace_id: string;
  start_time: number;
  end_time: number;
  attributes: SpanAttributes;
  parent_span_id: string | null;
}

const NS_PER_MS = 1_000_000;

function adkSpan(trace: TurnTrace, span: TraceSpan): AdkSpan {
  const error: Record<string, string> = span.error === undefined ? {} : { "error.message": span.error };
  return {
    name: span.name,
    span_id: span.spanId,
    trace_id: trace.traceId,
    start_time: Math.round(span.startMs * NS_PER_MS),
    end_time: Math.round(span.endMs * NS_PER_MS),
    attributes: { ...span.attributes, ...error },
    parent_span_id: span.parentSpanId ?? null,
  };
}

/** Every stored turn's spans, flattened in ADK's session-trace shape. */
export const sessionTrace = (traces: readonly TurnTrace[]): AdkSpan[] =>
  traces.flatMap((trace) => trace.spans.map((span) => adkSpan(trace, span)));

/**
 * ADK's `/debug/trace/:event_id`: the attributes of the model or tool span that produced the event, plus
 * its `trace_id` and `span_id`; `undefined` when no span names that event.
 */
export function eventTrace(traces: readonly TurnTrace[], eventId: string): SpanAttributes | undefined {
  for (const trace of traces) {
    const span = trace.spans.find((s) => s.attributes[ATTR.eventId] === eventId);
    if (span) return { ...span.attributes, trace_id: trace.traceId, span_id: span.spanId };
  }
  return undefined;
}
