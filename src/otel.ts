/**
 * `@baton-agents/core/otel`: every turn's spans exported as OTLP/HTTP JSON to a collector, in its own
 * entry because its OpenTelemetry packages (`@opentelemetry/api`, `@opentelemetry/otlp-transformer`) are
 * optional peers: install them with this entry, and pass `otlpTraces()` to `createWorker({ traces })`.
 */
export { otlpTraces } from "./telemetry/otlp-export.js";
