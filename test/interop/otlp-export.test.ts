import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportTraces, otlpConfigFrom, otlpTraceSink } from "../../src/telemetry/otlp-export.js";
import { traceOf } from "../contract/trace-cases.js";
import { otlpSpans, startCollector } from "../support/otlp-collector.js";

describe("OTLP/HTTP export of turn traces", () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  beforeAll(async () => {
    collector = await startCollector();
  });
  afterAll(() => collector.close());

  it("reads the endpoint, headers and service name from the standard OTEL_* variables", () => {
    expect(otlpConfigFrom({})).toBeUndefined();
    expect(
      otlpConfigFrom({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/",
        OTEL_EXPORTER_OTLP_HEADERS: "x-key=a%3Db, team = core",
      }),
    ).toEqual({
      url: "http://c:4318/v1/traces",
      headers: { "x-key": "a=b", team: "core" },
      serviceName: "baton",
    });
    expect(
      otlpConfigFrom({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t/custom", OTEL_SERVICE_NAME: "shop" }),
    ).toMatchObject({ url: "http://t/custom", serviceName: "shop" });
  });

  it("POSTs the spans as OTLP JSON to the collector: ids in hex, parents, attributes, error status", async () => {
    const config = otlpConfigFrom({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_HEADERS: "k=v",
    });
    if (!config) throw new Error("no config");
    const before = collector.posts.length;
    await exportTraces([traceOf("e-otlp")], config);
    await collector.received(before + 1);
    const post = collector.posts[before];
    expect(post?.path).toBe("/v1/traces");
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(post?.headers.k).toBe("v");
    const body = post?.body as { resourceSpans: { resource: { attributes: unknown[] } }[] };
    expect(body.resourceSpans[0]?.resource.attributes).toContainEqual({
      key: "service.name",
      value: { stringValue: "baton" },
    });
    const spans = otlpSpans(post?.body);
    expect(spans.map((s) => s.name)).toEqual(["invocation", "call_llm"]);
    expect(spans[0]?.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(spans[1]?.parentSpanId).toBe(spans[0]?.spanId);
    expect(spans[1]?.attributes).toContainEqual({
      key: "gen_ai.response.finish_reasons",
      value: { arrayValue: { values: [{ stringValue: "STOP" }] } },
    });
    expect(spans[1]?.status).toMatchObject({ code: 2, message: "boom" });
  });

  it("gives a runner's onTrace that exports each turn from waitUntil, and none without an endpoint", async () => {
    const pending: Promise<void>[] = [];
    const services = { fetch, log: (message: string) => expect.fail(message) };
    expect(otlpTraceSink({}, services, (work) => pending.push(work))).toBeUndefined();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url };
    const onTrace = otlpTraceSink(env, services, (work) => pending.push(work));
    const before = collector.posts.length;
    onTrace?.(traceOf("e-sink"));
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    expect(collector.posts).toHaveLength(before + 1);
    expect(otlpSpans(collector.posts[before]?.body).map((span) => span.name)).toEqual([
      "invocation",
      "call_llm",
    ]);
  });

  it("logs, and does not throw, when the collector cannot be reached", async () => {
    const logged: string[] = [];
    const config = { url: "http://127.0.0.1:9/v1/traces", headers: {}, serviceName: "baton" };
    await exportTraces([traceOf("e-x")], config, fetch, (m) => logged.push(m));
    expect(logged[0]).toMatch(/OTLP export to http:\/\/127\.0\.0\.1:9\/v1\/traces failed/);
  });
});
