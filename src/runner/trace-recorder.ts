import type { Clock, IdSource } from "../core/ids.js";
import type { SessionKey } from "../core/session.js";
import {
  ATTR,
  type OpenSpan,
  rootSpan,
  type SpanAttributes,
  type SpanRecorder,
  TRACE_LIMITS,
  type TraceSpan,
  type TurnTrace,
} from "../core/trace.js";
import { utf8Length } from "./utf8-length.js";

const PAYLOADS = [ATTR.llmRequest, ATTR.llmResponse, ATTR.toolArgs, ATTR.toolResponse];

/** The 32 hex digits of a UUID (its version and variant digits included: ids need only be unique). */
const hexOf = (uuid: string): string =>
  uuid.length === 36
    ? uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24)
    : uuid.replace(/-/g, "");

/**
 * A span's attributes from what it was given, in order (a later key wins), as one plain object: each
 * string past `TRACE_LIMITS.attributeChars` cut there.
 */
function merged(given: readonly SpanAttributes[]): SpanAttributes {
  const only = given.length === 1 ? given[0] : undefined;
  // A span given one object that needs no cut keeps that object (the caller left it as it was).
  if (only !== undefined && keptAsGiven(only)) return only;
  const plain: SpanAttributes = {};
  for (const attributes of given) {
    for (const key in attributes) {
      const value = attributes[key];
      if (value === undefined) continue;
      plain[key] =
        typeof value === "string" && value.length > TRACE_LIMITS.attributeChars
          ? `${value.slice(0, TRACE_LIMITS.attributeChars)}… (${value.length} chars)`
          : value;
    }
  }
  return plain;
}

/** Whether `attributes` is already what `merged` would make of it: no value undefined, no string too long. */
function keptAsGiven(attributes: SpanAttributes): boolean {
  for (const key in attributes) {
    const value = attributes[key];
    if (value === undefined || (typeof value === "string" && value.length > TRACE_LIMITS.attributeChars))
      return false;
  }
  return true;
}

/** Bytes a JSON string can take per UTF-16 unit at worst (a control character written as `\\u0000`). */
const WORST_BYTES_PER_UNIT = 6;

const stringBound = (text: string): number => WORST_BYTES_PER_UNIT * text.length + 2;

/**
 * An upper bound of the trace's size as UTF-8 JSON, from string lengths alone (no text is built): most
 * turns' traces are far inside `TRACE_LIMITS.bytes`, and only one the bound cannot clear is serialised.
 */
function sizeBound(trace: TurnTrace): number {
  let bytes = 128;
  for (const span of trace.spans) {
    bytes += 160 + stringBound(span.name) + (span.error === undefined ? 0 : stringBound(span.error));
    for (const key in span.attributes) {
      const value = span.attributes[key];
      bytes += stringBound(key) + 1;
      if (typeof value === "string") bytes += stringBound(value);
      else if (Array.isArray(value)) for (const item of value) bytes += stringBound(item) + 1;
      else bytes += 24; // a number or a boolean
    }
  }
  return bytes;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Where an ended span goes: the recorder's list, or its count of dropped spans past `TRACE_LIMITS.spans`. */
interface SpanSink {
  ended(span: RecordedSpan, error: unknown): void;
}

/**
 * A span being recorded, then as it ended: its attributes still as given (at its start, by `set`, at its
 * end), in order, merged into one object by `finish` (one object built once per span, instead of keys
 * added to it call by call). One object per span: no closures.
 */
class RecordedSpan implements OpenSpan {
  readonly given: SpanAttributes[];
  endMs = 0;
  error: string | undefined;
  #ended = false;

  constructor(
    readonly sink: SpanSink,
    readonly name: string,
    readonly spanId: string,
    readonly parentSpanId: string | undefined,
    readonly startMs: number,
    attributes: SpanAttributes,
  ) {
    this.given = [attributes];
  }

  set(more: SpanAttributes): void {
    this.given.push(more);
  }

  end(more?: SpanAttributes, error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    if (more) this.given.push(more);
    this.sink.ended(this, error);
  }
}

/** The stored form of an ended span: what it was given merged into one object, built once per span. */
function traceSpan({ name, spanId, parentSpanId, startMs, endMs, given, error }: RecordedSpan): TraceSpan {
  const attributes = merged(given);
  const span: TraceSpan = parentSpanId
    ? { name, spanId, parentSpanId, startMs, endMs, attributes }
    : { name, spanId, startMs, endMs, attributes };
  if (error !== undefined) span.error = error;
  return span;
}

/**
 * Records one invocation's spans in memory; `finish` returns them as a bounded `TurnTrace`. Ids are
 * OpenTelemetry-shaped (32 hex trace id, 16 hex span ids) from the run's id source, times from its clock.
 */
export class TraceRecorder implements SpanRecorder, SpanSink {
  readonly recording = true;
  readonly traceId: string;
  /** Ended spans; `finish` makes each a `TraceSpan` (`set` may still add attributes after the end). */
  readonly #ended: RecordedSpan[] = [];
  #dropped = 0;
  readonly #spanIdBase: string;
  #spanCount = 0;

  constructor(
    readonly invocationId: string,
    private readonly clock: Clock,
    ids: IdSource,
  ) {
    this.traceId = hexOf(ids.uuid());
    // Span ids: the trace id's last 12 hex digits (random bits of its UUID), then a counter: unique within
    // the trace, which is all a span id must be, and no second UUID per turn.
    this.#spanIdBase = this.traceId.slice(-12);
  }

  /**
   * `startMs` backdates the span (the runner's root span starts before the session is read). The recorder
   * reads `attributes` (and what `set` and `end` get) when the trace finishes: pass objects you leave as they are.
   */
  start(name: string, attributes: SpanAttributes, parent?: OpenSpan, startMs = this.clock.now()): OpenSpan {
    const spanId = this.#spanIdBase + (++this.#spanCount).toString(16).padStart(4, "0");
    return new RecordedSpan(this, name, spanId, parent?.spanId, startMs, attributes);
  }

  /** Keeps an ended span with its end time, or counts it as dropped past `TRACE_LIMITS.spans` (its `end` calls it). */
  ended(span: RecordedSpan, error: unknown): void {
    if (this.#ended.length >= TRACE_LIMITS.spans) {
      this.#dropped += 1;
      return;
    }
    span.endMs = this.clock.now();
    if (error !== undefined) span.error = errorText(error);
    this.#ended.push(span);
  }

  /** The spans in start order, within `TRACE_LIMITS`. The recorder records nothing more afterwards. */
  finish(): TurnTrace {
    const spans = this.#ended.map(traceSpan).sort((a, b) => a.startMs - b.startMs);
    const trace: TurnTrace = { traceId: this.traceId, invocationId: this.invocationId, spans };
    if (this.#dropped > 0) this.#markTruncated(trace, `${this.#dropped} spans dropped`);
    // Serialised to be measured only when a cheap bound says it may not fit (the store serialises it anyway).
    if (sizeBound(trace) > TRACE_LIMITS.bytes && utf8Length(JSON.stringify(trace)) > TRACE_LIMITS.bytes) {
      for (const span of spans) for (const key of PAYLOADS) delete span.attributes[key];
      this.#markTruncated(trace, "payloads dropped");
    }
    return trace;
  }

  #markTruncated(trace: TurnTrace, why: string): void {
    const root = rootSpan(trace);
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
