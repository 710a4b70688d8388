import type { Clock, IdSource } from "../core/ids.js";
import type { SessionKey } from "../core/session.js";
import {
  ATTR,
  type OpenSpan,
  type SpanAttributes,
  type SpanRecorder,
  TRACE_LIMITS,
  type TraceSpan,
  type TurnTrace,
} from "../core/trace.js";

const PAYLOADS = [ATTR.llmRequest, ATTR.llmResponse, ATTR.toolArgs, ATTR.toolResponse];

const encoder = new TextEncoder();

/** The last `length` hex digits of a UUID: past its version digit, so a counter-based test source stays unique. */
const hex = (ids: IdSource, length: number): string => ids.uuid().replace(/-/g, "").slice(-length);

const clip = (attributes: SpanAttributes): SpanAttributes => {
  const out: SpanAttributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    out[key] =
      typeof value === "string" && value.length > TRACE_LIMITS.attributeChars
        ? `${value.slice(0, TRACE_LIMITS.attributeChars)}… (${value.length} chars)`
        : value;
  }
  return out;
};

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Records one invocation's spans in memory; `finish` returns them as a bounded `TurnTrace`. Ids are
 * OpenTelemetry-shaped (32 hex trace id, 16 hex span ids) from the run's id source, times from its clock.
 */
export class TraceRecorder implements SpanRecorder {
  readonly traceId: string;
  readonly #spans: TraceSpan[] = [];
  #dropped = 0;

  constructor(
    readonly invocationId: string,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {
    this.traceId = hex(ids, 32);
  }

  /** `startMs` backdates the span (the runner's root span starts before the session is read). */
  start(name: string, attributes: SpanAttributes, parent?: OpenSpan, startMs = this.clock.now()): OpenSpan {
    const spanId = hex(this.ids, 16);
    const attrs: SpanAttributes = { ...attributes };
    let ended = false;
    return {
      spanId,
      set: (more) => void Object.assign(attrs, more),
      end: (more, error) => {
        if (ended) return;
        ended = true;
        Object.assign(attrs, more);
        if (this.#spans.length >= TRACE_LIMITS.spans) {
          this.#dropped += 1;
          return;
        }
        const parentSpanId = parent?.spanId ? { parentSpanId: parent.spanId } : {};
        const failed = error === undefined ? {} : { error: errorText(error) };
        const endMs = this.clock.now();
        this.#spans.push({
          name,
          spanId,
          ...parentSpanId,
          startMs,
          endMs,
          attributes: attrs, // clipped by `finish`: `set` may still name the event the span produced
          ...failed,
        });
      },
    };
  }

  /** The spans in start order, within `TRACE_LIMITS`. */
  finish(): TurnTrace {
    const spans = [...this.#spans]
      .sort((a, b) => a.startMs - b.startMs)
      .map((span) => ({ ...span, attributes: clip(span.attributes) }));
    const trace: TurnTrace = { traceId: this.traceId, invocationId: this.invocationId, spans };
    if (this.#dropped > 0) this.#markTruncated(trace, `${this.#dropped} spans dropped`);
    // Serialised once, and again only when the payloads had to go.
    let json = JSON.stringify(trace);
    if (json.length > TRACE_LIMITS.bytes) {
      for (const span of spans) for (const key of PAYLOADS) delete span.attributes[key];
      this.#markTruncated(trace, "payloads dropped");
      json = JSON.stringify(trace);
    }
    const root = spans.find((s) => s.parentSpanId === undefined);
    if (root) root.attributes[ATTR.traceBytes] = encoder.encode(json).byteLength;
    return trace;
  }

  #markTruncated(trace: TurnTrace, why: string): void {
    const root = trace.spans.find((s) => s.parentSpanId === undefined) ?? trace.spans[0];
    if (root) root.attributes[ATTR.truncated] = why;
  }
}

/** The root span of an invocation: the app, the session and the ids ADK's dev UI groups by. */
export const invocationSpanAttributes = (appName: string, key: SessionKey, invocationId: string) => ({
  [ATTR.invocationId]: invocationId,
  [ATTR.sessionId]: key.sessionId,
  [ATTR.conversation]: key.sessionId,
  "baton.app.name": appName,
  "baton.user.id": key.userId,
});
