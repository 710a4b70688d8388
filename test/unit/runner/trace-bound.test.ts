import { describe, expect, it } from "vitest";
import { ATTR, TRACE_LIMITS } from "../../../src/core/trace.js";
import { TraceRecorder } from "../../../src/runner/trace-recorder.js";

let n = 0;
const ids = { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}` };
const clock = { now: () => 1_000 };

/** A trace of `spans` model spans under one root, each with a request payload of `chars` characters. */
function traceWith(spans: number, chars: number) {
  const recorder = new TraceRecorder("e-1", clock, ids);
  const root = recorder.start("invocation", {});
  for (let i = 0; i < spans; i++)
    recorder.start("call_llm", { [ATTR.llmRequest]: "é".repeat(chars), [ATTR.agentName]: "a" }, root).end();
  root.end();
  return recorder.finish();
}

describe("a turn's trace within TRACE_LIMITS.bytes", () => {
  it("keeps the payloads of a trace whose JSON fits, even when a cheap bound alone could not tell", () => {
    // 6 × 2,000 two-byte characters: ~24 KB as JSON, but 72 KB by the worst-case bound (6 bytes a character).
    const trace = traceWith(6, TRACE_LIMITS.attributeChars);
    expect(trace.spans.filter((s) => s.attributes[ATTR.llmRequest] !== undefined)).toHaveLength(6);
    expect(trace.spans.find((s) => s.parentSpanId === undefined)?.attributes[ATTR.truncated]).toBeUndefined();
  });

  it("drops the payloads of a trace whose JSON would pass the limit, and says so on the root span", () => {
    const trace = traceWith(20, TRACE_LIMITS.attributeChars);
    expect(new TextEncoder().encode(JSON.stringify(trace)).byteLength).toBeLessThanOrEqual(
      TRACE_LIMITS.bytes,
    );
    expect(trace.spans.some((s) => s.attributes[ATTR.llmRequest] !== undefined)).toBe(false);
    expect(trace.spans.find((s) => s.parentSpanId === undefined)?.attributes[ATTR.truncated]).toBe(
      "payloads dropped",
    );
    expect(trace.spans.filter((s) => s.attributes[ATTR.agentName] === "a")).toHaveLength(20);
  });
});

describe("a finished trace's attributes", () => {
  it("are plain objects, what workerd's RPC clones, holding what was set after a span ended", () => {
    const recorder = new TraceRecorder("e-2", clock, ids);
    const root = recorder.start("invocation", { [ATTR.agentName]: "a" });
    const tool = recorder.start("execute_tool", {}, root);
    tool.end({ [ATTR.toolName]: "lookup" });
    tool.set({ [ATTR.eventId]: "ev-1" });
    root.end();
    const { spans } = recorder.finish();
    for (const span of spans) expect(Object.getPrototypeOf(span.attributes)).toBe(Object.prototype);
    expect(spans.find((s) => s.name === "execute_tool")?.attributes).toEqual({
      [ATTR.toolName]: "lookup",
      [ATTR.eventId]: "ev-1",
    });
  });
});
