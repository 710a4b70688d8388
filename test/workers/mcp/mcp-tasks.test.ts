import { inputRequired, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { type McpServedTool, mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { a2aWorker, BASE_URL } from "../support/a2a.js";
import { approvalApp, gatedApp } from "../support/a2a-apps.js";
import { freshIds, noSleep } from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";

const TASKS = "io.modelcontextprotocol/tasks";
const services = { sleep: noSleep, log: () => undefined };
/** The tests' Worker is reached as http://baton.test: a host of its own (decision 048). */
const HOSTS = { ALLOWED_HOSTS: "baton.test" };

interface RpcAnswer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A raw 2026-07-28 JSON-RPC request to `/mcp/<app>`, declaring the tasks extension unless told not to. */
async function rpc(
  fetchImpl: typeof fetch,
  app: string,
  method: string,
  params: Record<string, unknown>,
  options: { tasks?: boolean; token?: string } = {},
): Promise<RpcAnswer> {
  const capabilities = options.tasks === false ? {} : { elicitation: {}, extensions: { [TASKS]: {} } };
  const name = method === "tools/call" ? params.name : params.taskId;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(typeof name === "string" ? { "mcp-name": name } : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
  };
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  const response = await fetchImpl(`${BASE_URL}/mcp/${app}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
  const text = await response.text();
  const json = response.headers.get("content-type")?.includes("text/event-stream")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => JSON.parse(line.slice(5)))
        .find((m) => "result" in m || "error" in m)
    : JSON.parse(text);
  return { status: response.status, ...json };
}

/** Polls `tasks/get` until the task's status is one of `statuses`. */
async function until(
  fetchImpl: typeof fetch,
  app: string,
  taskId: string,
  statuses: string[],
  token?: string,
): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const { result, error } = await rpc(fetchImpl, app, "tasks/get", { taskId }, token ? { token } : {});
    if (error) throw new Error(`tasks/get failed: ${error.message}`);
    if (result && statuses.includes(String(result.status))) return result;
    await new Promise((r) => setTimeout(r, 20));
  }
  const last = await rpc(fetchImpl, app, "tasks/get", { taskId }, token ? { token } : {});
  throw new Error(`the task never reached ${statuses.join("/")}: ${JSON.stringify(last)}`);
}

const helperApp = (name: string) =>
  defineApp({
    name,
    rootAgent: new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" }),
  });

describe("/mcp/<app>: the Tasks extension (SEP-2663) over A2A tasks", () => {
  it("advertises the extension in server/discover, under capabilities.extensions", async () => {
    const { app } = freshIds("mcpt");
    const { fetchImpl } = a2aWorker({ apps: [helperApp(app)], mcp: mcpServer(), services }, HOSTS);
    const { result } = await rpc(fetchImpl, app, "server/discover", {});
    const capabilities = result?.capabilities as Record<string, Record<string, unknown>>;
    expect(capabilities.extensions?.[TASKS]).toEqual({});
    expect(capabilities.tasks).toBeUndefined();
  });

  it("answers a turn-tool call with a task at once; tasks/get polls it to completed with the turn's answer", async () => {
    const { app } = freshIds("mcpt");
    const { fetchImpl } = a2aWorker({ apps: [helperApp(app)], mcp: mcpServer(), services }, HOSTS);
    const created = await rpc(fetchImpl, app, "tools/call", { name: app, arguments: { message: "hello" } });
    expect(created.result).toMatchObject({
      resultType: "task",
      taskId: expect.stringContaining(":"),
      status: "working",
      ttlMs: null,
      pollIntervalMs: expect.any(Number),
    });
    // The SDK gives every tools/call result a content array; a task's is empty.
    expect(created.result?.content ?? []).toEqual([]);
    const taskId = String(created.result?.taskId);
    const done = await until(fetchImpl, app, taskId, ["completed", "failed"]);
    expect(done).toMatchObject({ resultType: "complete", taskId, status: "completed" });
    const result = done.result as { content: { text: string }[]; structuredContent: { sessionId: string } };
    expect(result.content[0]?.text).not.toBe("");
    expect(result.structuredContent.sessionId).toBe(taskId.slice(taskId.indexOf(":") + 1));
    expect(Date.parse(String(done.createdAt))).toBeLessThanOrEqual(Date.parse(String(done.lastUpdatedAt)));
  });

  it("is the same record as the A2A task: an end user's MCP task is read through /a2a/<app>'s GetTask", async () => {
    const issuer = await testIssuer();
    const { app, id } = freshIds("mcpt");
    const { fetchImpl } = a2aWorker(
      { apps: [helperApp(app)], mcp: mcpServer(), services: { ...services, fetch: issuer.fetch } },
      { ...issuer.vars, ALLOWED_HOSTS: "baton.test" },
    );
    const token = await issuer.token({ sub: `alice-${id}` });
    const created = await rpc(
      fetchImpl,
      app,
      "tools/call",
      { name: app, arguments: { message: "hi" } },
      { token },
    );
    const taskId = String(created.result?.taskId);
    await until(fetchImpl, app, taskId, ["completed"], token);
    const a2a = await fetchImpl(`${BASE_URL}/a2a/${app}`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0", authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "GetTask", params: { id: taskId } }),
    });
    const task = (await a2a.json()) as { result?: { id: string; status: { state: string } } };
    expect(task.result).toMatchObject({ id: taskId, status: { state: "TASK_STATE_COMPLETED" } });

    // Another user finds no such task, by either road.
    const bob = await issuer.token({ sub: `bob-${id}` });
    const asBob = await rpc(fetchImpl, app, "tasks/get", { taskId }, { token: bob });
    expect(asBob.error?.code).toBe(-32602);
    const cancelAsBob = await rpc(fetchImpl, app, "tasks/cancel", { taskId }, { token: bob });
    expect(cancelAsBob.error?.code).toBe(-32602);
  });

  it("cancels a running turn as A2A's CancelTask does: cancelled, and the turn stops", async () => {
    const gated = gatedApp(`mcpt-cancel-${crypto.randomUUID().slice(0, 8)}`);
    const { fetchImpl, settle } = a2aWorker({ apps: [gated.app], mcp: mcpServer(), services }, HOSTS);
    const created = await rpc(fetchImpl, gated.app.name, "tools/call", {
      name: gated.app.name,
      arguments: { message: "go" },
    });
    const taskId = String(created.result?.taskId);
    await gated.reached;
    expect((await rpc(fetchImpl, gated.app.name, "tasks/get", { taskId })).result?.status).toBe("working");
    const ack = await rpc(fetchImpl, gated.app.name, "tasks/cancel", { taskId });
    expect(ack.result).toMatchObject({ resultType: "complete" });
    gated.open();
    await settle();
    const got = await rpc(fetchImpl, gated.app.name, "tasks/get", { taskId });
    expect(got.result).toMatchObject({ status: "cancelled" });
    expect(got.result?.result).toBeUndefined();
    // Cancel again: still an ack (idempotent).
    expect((await rpc(fetchImpl, gated.app.name, "tasks/cancel", { taskId })).result).toMatchObject({
      resultType: "complete",
    });
  });

  it("a turn paused on a long-running call is input_required; tasks/update with the answer resumes it", async () => {
    const approval = approvalApp(`mcpt-input-${crypto.randomUUID().slice(0, 8)}`);
    const { fetchImpl } = a2aWorker({ apps: [approval], mcp: mcpServer(), services }, HOSTS);
    const app = approval.name;
    const created = await rpc(fetchImpl, app, "tools/call", { name: app, arguments: { message: "refund" } });
    const taskId = String(created.result?.taskId);
    const waiting = await until(fetchImpl, app, taskId, ["input_required", "completed", "failed"]);
    expect(waiting.status).toBe("input_required");
    const requests = waiting.inputRequests as Record<string, { method: string }>;
    expect(Object.keys(requests)).toEqual(["call-approve"]);
    expect(requests["call-approve"]?.method).toBe("elicitation/create");

    // No answer: acknowledged, and the task still waits.
    expect((await rpc(fetchImpl, app, "tasks/update", { taskId, inputResponses: {} })).result).toMatchObject({
      resultType: "complete",
    });
    expect((await rpc(fetchImpl, app, "tasks/get", { taskId })).result?.status).toBe("input_required");

    const answer = { "call-approve": { action: "accept", content: { answer: "approved" } } };
    const ack = await rpc(fetchImpl, app, "tasks/update", { taskId, inputResponses: answer });
    expect(ack.result).toMatchObject({ resultType: "complete" });
    const done = await until(fetchImpl, app, taskId, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    const result = done.result as { content: { text: string }[] };
    expect(result.content[0]?.text).toBe("approved, refund issued");
  });

  it("without the extension: tasks methods are -32021 and the turn tool answers in the request", async () => {
    const { app } = freshIds("mcpt");
    const { fetchImpl } = a2aWorker({ apps: [helperApp(app)], mcp: mcpServer(), services }, HOSTS);
    for (const [method, params] of [
      ["tasks/get", { taskId: "gate-test" }],
      ["tasks/update", { taskId: "gate-test", inputResponses: {} }],
      ["tasks/cancel", { taskId: "gate-test" }],
    ] as const) {
      const answer = await rpc(fetchImpl, app, method, params, { tasks: false });
      expect(answer.error?.code, method).toBe(-32021);
    }
    const sync = await rpc(
      fetchImpl,
      app,
      "tools/call",
      { name: app, arguments: { message: "hi" } },
      { tasks: false },
    );
    expect(sync.result).toMatchObject({ resultType: "complete", content: [expect.anything()] });
    expect(sync.result?.taskId).toBeUndefined();
    // With it, an unknown task is -32602 and the removed v1 methods are unknown (-32601).
    expect((await rpc(fetchImpl, app, "tasks/get", { taskId: "nope" })).error?.code).toBe(-32602);
    expect((await rpc(fetchImpl, app, "tasks/result", { taskId: "nope:x" })).error?.code).toBe(-32601);
    expect((await rpc(fetchImpl, app, "tasks/list", {})).error?.code).toBe(-32601);
  });

  it("runs a served tool declared a task: its answer, a protocol error as failed, input asked and resumed, required refused without the extension", async () => {
    const { app } = freshIds("mcpt");
    const answered = { type: "object" as const, properties: {} };
    const tools: McpServedTool[] = [
      {
        tool: { name: "double", inputSchema: answered },
        task: "optional",
        call: (a) => ({ content: [{ type: "text", text: String(Number(a.n) * 2) }] }),
      },
      {
        tool: { name: "broken", inputSchema: answered },
        task: "required",
        call: () => {
          throw new ProtocolError(ProtocolErrorCode.InternalError, "it broke");
        },
      },
      {
        tool: { name: "ask_twice", inputSchema: answered },
        task: "optional",
        call: (_a, extra) => {
          const seen = extra.mcpReq.inputResponses ?? {};
          const names = ["a", "b"].filter((k) => !(k in seen));
          if (names.length > 0)
            return inputRequired({
              inputRequests: Object.fromEntries(
                ["a", "b"].map((k) => [
                  k,
                  inputRequired.elicit({
                    message: k,
                    requestedSchema: { type: "object", properties: { v: { type: "string" } } },
                  }),
                ]),
              ),
            });
          const v = (k: string) => String((seen[k] as { content?: { v?: string } }).content?.v);
          return { content: [{ type: "text", text: `${v("a")}+${v("b")}` }] };
        },
      },
    ];
    tools.push({
      // Asks in the request first, then runs as a task with the retry's answer.
      tool: { name: "named", inputSchema: answered },
      task: "required",
      askFirst: (_a, extra) =>
        extra.mcpReq.inputResponses?.who === undefined
          ? inputRequired({
              inputRequests: {
                who: inputRequired.elicit({
                  message: "who?",
                  requestedSchema: { type: "object", properties: { v: { type: "string" } } },
                }),
              },
            })
          : undefined,
      call: (_a, extra) => ({
        content: [
          {
            type: "text",
            text: `hi ${(extra.mcpReq.inputResponses?.who as { content?: { v?: string } } | undefined)?.content?.v}`,
          },
        ],
      }),
    });
    const { fetchImpl } = a2aWorker(
      { apps: [helperApp(app)], mcp: mcpServer({ tools: () => tools }), services },
      HOSTS,
    );

    const doubled = await rpc(fetchImpl, app, "tools/call", { name: "double", arguments: { n: 21 } });
    expect(doubled.result).toMatchObject({ resultType: "task", status: "working" });
    const done = await until(fetchImpl, app, String(doubled.result?.taskId), ["completed", "failed"]);
    expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "42" }] } });
    // Without the extension the same tool answers in the request.
    const sync = await rpc(
      fetchImpl,
      app,
      "tools/call",
      { name: "double", arguments: { n: 2 } },
      { tasks: false },
    );
    expect(sync.result).toMatchObject({ resultType: "complete", content: [{ text: "4" }] });

    const broken = await rpc(fetchImpl, app, "tools/call", { name: "broken", arguments: {} });
    const failed = await until(fetchImpl, app, String(broken.result?.taskId), ["completed", "failed"]);
    expect(failed).toMatchObject({ status: "failed", error: { code: -32603, message: "it broke" } });
    expect(failed.result).toBeUndefined();
    const refused = await rpc(
      fetchImpl,
      app,
      "tools/call",
      { name: "broken", arguments: {} },
      { tasks: false },
    );
    expect(refused.error?.code).toBe(-32021);

    const asked = await rpc(fetchImpl, app, "tools/call", { name: "ask_twice", arguments: {} });
    const taskId = String(asked.result?.taskId);
    const waiting = await until(fetchImpl, app, taskId, ["input_required", "completed", "failed"]);
    expect(Object.keys(waiting.inputRequests as object).sort()).toEqual(["a", "b"]);
    const one = { a: { action: "accept", content: { v: "x" } } };
    await rpc(fetchImpl, app, "tasks/update", { taskId, inputResponses: one });
    const half = await until(fetchImpl, app, taskId, ["input_required"]);
    expect(Object.keys(half.inputRequests as object)).toEqual(["b"]);
    const two = { b: { action: "accept", content: { v: "y" } } };
    await rpc(fetchImpl, app, "tasks/update", { taskId, inputResponses: two });
    const both = await until(fetchImpl, app, taskId, ["completed", "failed"]);
    expect(both).toMatchObject({ status: "completed", result: { content: [{ text: "x+y" }] } });

    const first = await rpc(fetchImpl, app, "tools/call", { name: "named", arguments: {} });
    expect(first.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { who: expect.anything() },
    });
    const retry = await rpc(fetchImpl, app, "tools/call", {
      name: "named",
      arguments: {},
      inputResponses: { who: { action: "accept", content: { v: "Ada" } } },
    });
    expect(retry.result).toMatchObject({ resultType: "task" });
    const named = await until(fetchImpl, app, String(retry.result?.taskId), ["completed", "failed"]);
    expect(named).toMatchObject({ status: "completed", result: { content: [{ text: "hi Ada" }] } });
  });
});
