import { type HrTime, SpanKind, SpanStatusCode, TraceFlags } from "@opentelemetry/api";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import type { TraceExport } from "../core/ports.js";
import type { TraceSpan, TurnTrace } from "../core/trace.js";

/** Where and how spans go: from the standard `OTEL_*` variables. */
export interface OtlpConfig {
  url: string;
  headers: Record<string, string>;
  serviceName: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

/**
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as is, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`; headers
 * from `OTEL_EXPORTER_OTLP_HEADERS` (`k=v,k2=v2`); `OTEL_SERVICE_NAME` (default `baton`). Undefined when
 * no endpoint is set: then nothing is exported.
 */
export function otlpConfigFrom(env: Record<string, unknown>): OtlpConfig | undefined {
  const base = text(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const url =
    text(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? (base && `${base.replace(/\/+$/, "")}/v1/traces`);
  if (!url) return undefined;
  const headers: Record<string, string> = {};
  for (const pair of (text(env.OTEL_EXPORTER_OTLP_HEADERS) ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at > 0)
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return { url, headers, serviceName: text(env.OTEL_SERVICE_NAME) ?? "baton" };
}

const hrTime = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1_000_000)];

/** Our stored span as the SDK's `ReadableSpan`, which the OTLP serializer reads. */
function readable(trace: TurnTrace, span: TraceSpan, resource: ReadableSpan["resource"]): ReadableSpan {
  const context = (spanId: string) => ({ traceId: trace.traceId, spanId, traceFlags: TraceFlags.SAMPLED });
  return {
    name: span.name,
    kind: span.parentSpanId === undefined ? SpanKind.SERVER : SpanKind.INTERNAL,
    spanContext: () => context(span.spanId),
    ...(span.parentSpanId === undefined ? {} : { parentSpanContext: context(span.parentSpanId) }),
    startTime: hrTime(span.startMs),
    endTime: hrTime(span.endMs),
    duration: hrTime(span.endMs - span.startMs),
    status:
      span.error === undefined
        ? { code: SpanStatusCode.OK }
        : { code: SpanStatusCode.ERROR, message: span.error },
    attributes: span.attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: { name: "baton" },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** The OTLP/HTTP JSON body (`ExportTraceServiceRequest`) for some turns' spans. */
export function otlpTraceBody(traces: readonly TurnTrace[], serviceName: string): Uint8Array {
  // SAFETY: the serializer reads a resource's `attributes` and `schemaUrl` only (and groups spans by the
  // object); `@opentelemetry/resources`' class, with its detectors and merging, would add ~2 KiB to every
  // Worker for the same two fields.
  const resource = { attributes: { "service.name": serviceName } } as unknown as ReadableSpan["resource"];
  const spans = traces.flatMap((trace) => trace.spans.map((span) => readable(trace, span, resource)));
  return JsonTraceSerializer.serializeRequest(spans) ?? new Uint8Array();
}

/**
 * POSTs the spans to the collector. Meant for `ctx.waitUntil` after the response: it never throws, and a
 * refusal or network failure is logged, since tracing must not fail a turn.
 */
export async function exportTraces(
  traces: readonly TurnTrace[],
  config: OtlpConfig,
  fetcher: typeof fetch = fetch,
  log: (message: string) => void = console.warn,
): Promise<void> {
  try {
    const response = await fetcher(config.url, {
      method: "POST",
      headers: { ...config.headers, "content-type": "application/json" },
      body: otlpTraceBody(traces, config.serviceName),
    });
    if (!response.ok) log(`OTLP export to ${config.url} answered ${response.status}`);
    await response.body?.cancel();
  } catch (error) {
    log(`OTLP export to ${config.url} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * What a `Runner` calls with each finished turn's trace (`onTrace`) when `env` sets an OTLP endpoint:
 * the export runs in `waitUntil`, after the response. `undefined` when no endpoint is set.
 */
export const otlpTraceSink: TraceExport = (env, services, waitUntil) => {
  const config = otlpConfigFrom(env);
  if (config === undefined) return undefined;
  return (trace) => waitUntil(exportTraces([trace], config, services.fetch, services.log));
};

/**
 * Exports every turn's spans as OTLP/HTTP JSON to the collector the standard `OTEL_*` variables name
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `…_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_SERVICE_NAME`),
 * after the response. Give it to `createWorker({ traces: otlpTraces() })`; its OpenTelemetry packages are
 * this entry's peers, so a Worker without it installs and bundles none of them.
 * @example
 * export default createWorker({ apps: [app], traces: otlpTraces() });
 */
export const otlpTraces = (): TraceExport => otlpTraceSink;
