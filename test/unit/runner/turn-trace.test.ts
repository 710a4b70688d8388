import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { createEvent, type Event } from "../../../src/core/event.js";
import { TRACE_LIMITS, type TraceSpan, type TurnTrace, withStoredSize } from "../../../src/core/trace.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { tracesOf } from "../support/harness.js";
import { collect, testServices, text } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

/** front → (a 503 first, then) transfer to `stock`, which calls its tool and answers. */
async function tracedTurn() {
  const turn = await inventoryTurn({ traces: true, onTrace: true });
  const [trace] = await tracesOf(turn.store, { appName: "inventory", userId: "u", sessionId: "t1" });
  if (!trace) throw new Error("no trace stored");
  const named = (name: string): TraceSpan[] => trace.spans.filter((s) => s.name === name);
  return { ...turn, trace, named };
}

async function inventoryTurn(options: { traces: boolean; onTrace: boolean }) {
  const services = testServices();
  const store = new InMemorySessionStore({
    clock: services.clock,
    ids: services.ids,
    traces: options.traces,
  });
  const count = functionTool({
    name: "count_stock",
    description: "Counts items",
    parameters: z.object({ sku: z.string() }),
    execute: ({ sku }) => ({ sku, left: 4 }),
  });
  const stock = new LlmAgent({
    name: "stock",
    description: "Stock levels",
    model: scriptedModel(
      [{ calls: [{ name: "count_stock", args: { sku: "A1" } }] }, { text: "4 left" }],
      "s-1",
    ),
    tools: [count],
  });
  const front = new LlmAgent({
    name: "front",
    model: scriptedModel([
      { fail: 503 },
      { calls: [{ name: "transfer_to_agent", args: { agent_name: "stock" } }] },
    ]),
    subAgents: [stock],
  });
  const app = defineApp({ name: "inventory", rootAgent: front });
  const exported: TurnTrace[] = [];
  // What the runner hands the store at the turn's end: the trace it built, if it built one.
  const handed: (TurnTrace | undefined)[] = [];
  const endTurn = store.endTurn.bind(store);
  store.endTurn = (key, lease, trace) => {
    handed.push(trace);
    return endTurn(key, lease, trace);
  };
  const onTrace = options.onTrace ? (t: TurnTrace) => exported.push(t) : undefined;
  const runner = new Runner({ app, sessionStore: store, services, ...(onTrace ? { onTrace } : {}) });
  await store.createSession({ appName: "inventory", userId: "u", sessionId: "t1" });
  const events = await collect(runner, { userId: "u", sessionId: "t1", newMessage: text("how many A1?") });
  return { events, exported, store, handed };
}

/** What a turn stored, without ids and times (a traced turn draws ids for its trace from the same source). */
const stored = (events: Event[]) =>
  events.map((e) => ({ author: e.author, content: e.content, errorCode: e.errorCode, actions: e.actions }));

describe("a turn whose trace nobody reads (decision 041)", () => {
  it("records none on the default in-memory store, and stores what a traced turn stores", async () => {
    const traced = await inventoryTurn({ traces: true, onTrace: true });
    const untraced = await inventoryTurn({ traces: false, onTrace: false });
    expect(untraced.store.listTraces).toBeUndefined();
    expect(untraced.exported).toEqual([]);
    expect(untraced.handed).toEqual([undefined]); // no trace was built
    expect(traced.handed).toHaveLength(1);
    expect(traced.handed[0]?.spans.length).toBeGreaterThan(3);
    expect(untraced.events.length).toBeGreaterThan(3);
    expect(stored(untraced.events)).toEqual(stored(traced.events));
  });

  it("is recorded for onTrace alone, and kept only by a store made with traces: true", async () => {
    const exportedOnly = await inventoryTurn({ traces: false, onTrace: true });
    expect(exportedOnly.exported).toHaveLength(1);
    expect(exportedOnly.exported[0]?.spans.map((s) => s.name)).toContain("call_llm");
    expect(exportedOnly.store.listTraces).toBeUndefined();
    const keptOnly = await inventoryTurn({ traces: true, onTrace: false });
    const key = { appName: "inventory", userId: "u", sessionId: "t1" };
    expect((await tracesOf(keptOnly.store, key))[0]?.spans.map((s) => s.name)).toContain(
      "execute_tool count_stock",
    );
  });
});

describe("each turn's trace", () => {
  it("records one span per invocation, agent run, model call and tool call, nested as they ran", async () => {
    const { trace, named, exported } = await tracedTurn();
    // The store adds the size of the trace as it stored it; the exported trace is the same otherwise.
    expect([withStoredSize(exported[0] ?? trace, 0)]).toEqual([withStoredSize(trace, 0)]);
    expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(trace.invocationId).toMatch(/^e-/);
    const [root] = named("invocation");
    const [front] = named("invoke_agent front");
    const [stock] = named("invoke_agent stock");
    expect(root?.parentSpanId).toBeUndefined();
    expect(front?.parentSpanId).toBe(root?.spanId);
    // The target runs inside the step that transferred, as in ADK.
    expect(stock?.parentSpanId).toBe(front?.spanId);
    expect(named("call_llm").map((s) => s.parentSpanId)).toEqual([
      front?.spanId,
      stock?.spanId,
      stock?.spanId,
    ]);
    expect(named("execute_tool transfer_to_agent")[0]?.parentSpanId).toBe(front?.spanId);
    expect(named("execute_tool count_stock")[0]?.parentSpanId).toBe(stock?.spanId);
    for (const span of trace.spans) expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(trace.spans.map((s) => s.spanId)).size).toBe(trace.spans.length);
  });

  it("puts the model id, tokens from the provider's usage, retries and duration on each model call", async () => {
    const { named, events } = await tracedTurn();
    const [first, second, third] = named("call_llm");
    expect(first?.attributes).toMatchObject({
      "gen_ai.operation.name": "generate_content",
      "gen_ai.system": "scripted",
      "gen_ai.request.model": "scripted",
      "gen_ai.usage.input_tokens": 3,
      "gen_ai.usage.output_tokens": 2,
      "baton.model.retries": 1,
      "gen_ai.agent.name": "front",
    });
    expect(first?.attributes["baton.model.duration_ms"]).toBeGreaterThan(0); // the retry's back-off
    expect(second?.attributes["baton.model.retries"]).toBeUndefined();
    expect(third?.attributes["gen_ai.response.finish_reasons"]).toEqual(["STOP"]);
    // Each model span names the event it produced, and that event carries ADK's usageMetadata.
    const answer = events.at(-1);
    expect(third?.attributes["gcp.vertex.agent.event_id"]).toBe(answer?.id);
    expect(answer?.usageMetadata).toMatchObject({ promptTokenCount: 3, candidatesTokenCount: 2 });
    expect(JSON.parse(String(third?.attributes["gcp.vertex.agent.llm_request"]))).toMatchObject({
      model: "s-1",
      config: { tools: ["transfer_to_agent", "count_stock"] },
    });
  });

  it("keeps a long history's model request to the clip's length, naming how many contents it had", async () => {
    const services = testServices();
    const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids, traces: true });
    const agent = new LlmAgent({ name: "solo", model: scriptedModel([{ text: "ok" }], "m-1") });
    const runner = new Runner({
      app: defineApp({ name: "long", rootAgent: agent }),
      sessionStore: store,
      services,
    });
    const env = { ids: services.ids, clock: services.clock };
    const events = Array.from({ length: 300 }, (_, i) =>
      createEvent({ invocationId: `old-${i}`, author: "user", content: text(`message ${i}`) }, env),
    );
    const key = { appName: "long", userId: "u", sessionId: "long-1" };
    await store.createSession({ ...key, events });
    await collect(runner, { userId: "u", sessionId: "long-1", newMessage: text("and now?") });
    const [trace] = await tracesOf(store, key);
    const logged = String(
      trace?.spans.find((s) => s.name === "call_llm")?.attributes["gcp.vertex.agent.llm_request"],
    );
    expect(logged.length).toBeLessThanOrEqual(TRACE_LIMITS.attributeChars);
    expect(logged).toMatch(
      /^\{"model":"m-1","config":\{"system_instruction":.*"contents":\[\{"role":"user","parts":\[\{"text":"message 0"\}\]\},/,
    );
    expect(logged.endsWith(`… (301 contents; clipped at ${TRACE_LIMITS.attributeChars} chars)`)).toBe(true);
    // The next turn's request starts with the same contents: the same text, its own count at the end.
    await collect(runner, { userId: "u", sessionId: "long-1", newMessage: text("and then?") });
    const [, second] = await tracesOf(store, key);
    const next = String(
      second?.spans.find((s) => s.name === "call_llm")?.attributes["gcp.vertex.agent.llm_request"],
    );
    const tail = `… (303 contents; clipped at ${TRACE_LIMITS.attributeChars} chars)`;
    expect(next.endsWith(tail)).toBe(true);
    expect(next.slice(0, -tail.length)).toBe(logged.slice(0, next.length - tail.length));
  });

  it("logs each turn's own instruction when the agent's instruction reads state that changed", async () => {
    const services = testServices();
    const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids, traces: true });
    const agent = new LlmAgent({
      name: "tutor",
      model: scriptedModel([{ text: "one" }, { text: "two" }], "m-2"),
      instruction: "Teach at level {level}.",
    });
    const runner = new Runner({
      app: defineApp({ name: "levels", rootAgent: agent }),
      sessionStore: store,
      services,
    });
    const key = { appName: "levels", userId: "u", sessionId: "lv-1" };
    await store.createSession({ ...key, state: { level: "beginner" } });
    await collect(runner, { userId: "u", sessionId: "lv-1", newMessage: text("hi") });
    await collect(runner, {
      userId: "u",
      sessionId: "lv-1",
      newMessage: text("harder"),
      stateDelta: { level: "expert" },
    });
    const logged = (await tracesOf(store, key)).map((t) =>
      String(t.spans.find((s) => s.name === "call_llm")?.attributes["gcp.vertex.agent.llm_request"]),
    );
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain("Teach at level beginner.");
    expect(logged[1]).toContain("Teach at level expert.");
    expect(JSON.parse(logged[1] ?? "").contents).toHaveLength(3);
  });

  it("records the transfer and the tool's response on the tool spans", async () => {
    const { named, events } = await tracedTurn();
    const transfer = named("execute_tool transfer_to_agent")[0];
    expect(transfer?.attributes["baton.transfer.to"]).toBe("stock");
    expect(transfer?.attributes["gcp.vertex.agent.event_id"]).toBe(
      events.find((e) => e.actions.transferToAgent)?.id,
    );
    expect(
      JSON.parse(String(named("execute_tool count_stock")[0]?.attributes["gcp.vertex.agent.tool_response"])),
    ).toEqual({
      sku: "A1",
      left: 4,
    });
  });

  it("says what the turn cost in storage: one row per event and stored state key, and their bytes", async () => {
    const { named, events } = await tracedTurn();
    const root = named("invocation")[0]?.attributes ?? {};
    // The user event plus every event the run stored (none of them writes state).
    expect(root["baton.storage.rows_written"]).toBe(events.length + 1);
    expect(root["baton.storage.bytes_written"]).toBeGreaterThan(JSON.stringify(events).length / 2);
    expect(root["baton.storage.trace_bytes"]).toBeGreaterThan(500);
  });

  it("counts the bytes of every event the turn stored, the user's included, as their JSON", async () => {
    const { named, store } = await tracedTurn();
    const session = await store.getSession({ appName: "inventory", userId: "u", sessionId: "t1" });
    const stored = session?.events ?? [];
    const bytes = stored.reduce((sum, e) => sum + new TextEncoder().encode(JSON.stringify(e)).byteLength, 0);
    expect(stored.length).toBeGreaterThan(3);
    expect(named("invocation")[0]?.attributes["baton.storage.bytes_written"]).toBe(bytes);
  });

  it("marks a failed model call and agent run as errors, and still stores the trace", async () => {
    const services = testServices();
    const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids, traces: true });
    const broken = new LlmAgent({ name: "broken", model: scriptedModel([{ fail: 400 }]) });
    const runner = new Runner({
      app: defineApp({ name: "b", rootAgent: broken }),
      sessionStore: store,
      services,
    });
    const key = { appName: "b", userId: "u", sessionId: "x" };
    await store.createSession(key);
    await collect(runner, { userId: "u", sessionId: "x", newMessage: text("hi") });
    const [trace] = await tracesOf(store, key);
    expect(trace?.spans.find((s) => s.name === "call_llm")?.error).toMatch(/400/);
    expect(trace?.spans.find((s) => s.name === "invoke_agent broken")?.error).toBeDefined();
  });
});
