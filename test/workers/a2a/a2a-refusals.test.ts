import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { demoApp } from "../../../src/demo/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { a2aWorker, BASE_URL } from "../support/a2a.js";
import { noSleep } from "../support/http.js";

// Agent failures are expected here and checked in the stored events, so the log port is quiet.
const services = { sleep: noSleep, log: () => undefined };
const CardSchema = z.looseObject({
  skills: z.array(z.object({ id: z.string(), description: z.string() })),
  securitySchemes: z.unknown().optional(),
});

function rpc(init: { body: string; version?: string; contentType?: string; token?: string | null }) {
  const { fetchImpl } = a2aWorker({ apps: [demoApp], services });
  const headers = new Headers({ "content-type": init.contentType ?? "application/json" });
  if (init.version) headers.set("A2A-Version", init.version);
  if (init.token !== undefined)
    headers.set("authorization", init.token === null ? "" : `Bearer ${init.token}`);
  return fetchImpl(`${BASE_URL}/a2a/demo`, { method: "POST", headers, body: init.body });
}

async function rpcError(response: Promise<Response>, status = 200) {
  const res = await response;
  const body = await res.text();
  expect(res.status, body).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  return JSON.parse(body);
}

/** A streaming method's refusal: an SSE stream whose one frame is the JSON-RPC error. */
async function streamedError(response: Promise<Response>) {
  const res = await response;
  const body = await res.text();
  expect(res.status, body).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const frames = body.split("\n\n").filter((frame) => frame.startsWith("data: "));
  expect(frames).toHaveLength(1);
  return JSON.parse(frames[0]?.slice("data: ".length) ?? "");
}

const call = (method: string, params: unknown, id: unknown = 7) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
const newContext = () => crypto.randomUUID();
const sessionOf = (contextId: string) =>
  new DurableObjectSessionStore(env).getSession({
    appName: "demo",
    userId: `A2A_USER_${contextId}`,
    sessionId: contextId,
  });

describe("A2A refusals: JSON-RPC error codes, never a 500, nothing stored", () => {
  it("answers a body that is not JSON with -32700 and id null", async () => {
    expect(await rpcError(rpc({ body: "{not json" }))).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: expect.stringContaining("Parse error") },
    });
  });

  it("answers JSON that is not a JSON-RPC 2.0 request with -32600, keeping its id", async () => {
    const body = await rpcError(rpc({ body: JSON.stringify({ id: 3, method: "SendMessage" }) }));
    expect(body).toMatchObject({ id: 3, error: { code: -32600 } });
    expect((await rpcError(rpc({ body: "[1,2]" }))).error.code).toBe(-32600);
  });

  it("answers unknown methods with -32601 in both versions", async () => {
    expect((await rpcError(rpc({ body: call("tasks/explode", {}), version: "0.3" }))).error.code).toBe(
      -32601,
    );
    expect((await rpcError(rpc({ body: call("ExplodeTask", {}), version: "1.0" }))).error.code).toBe(-32601);
    // A 0.3 method name under the 1.0 header is not a 1.0 method.
    expect((await rpcError(rpc({ body: call("message/send", {}), version: "1.0" }))).error.code).toBe(-32601);
  });

  it("answers unknown task ids with -32001 (1.0 with ErrorInfo data, 0.3 too), for get, cancel and resubscribe", async () => {
    const missing = `${crypto.randomUUID()}:${newContext()}`;
    const v1 = await rpcError(rpc({ body: call("GetTask", { id: missing }), version: "1.0" }));
    expect(v1.error).toMatchObject({
      code: -32001,
      data: [{ reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" }],
    });
    expect((await rpcError(rpc({ body: call("tasks/get", { id: "not-ours" }) }))).error.code).toBe(-32001);
    expect(
      (await rpcError(rpc({ body: call("CancelTask", { id: missing }), version: "1.0" }))).error.code,
    ).toBe(-32001);
    const subscribe = await streamedError(
      rpc({ body: call("SubscribeToTask", { id: missing }), version: "1.0" }),
    );
    expect(subscribe).toMatchObject({ id: 7, error: { code: -32001 } });
    const resubscribe = await streamedError(rpc({ body: call("tasks/resubscribe", { id: missing }) }));
    expect(resubscribe).toMatchObject({ id: 7, error: { code: -32001 } });
  });

  it("reads a call without A2A-Version by its method's name: a 1.0 name is 1.0, a 0.3 name 0.3", async () => {
    const missing = `${crypto.randomUUID()}:${newContext()}`;
    const v1 = await rpcError(rpc({ body: call("GetTask", { id: missing }) }));
    expect(v1.error).toMatchObject({ code: -32001, data: [{ reason: "TASK_NOT_FOUND" }] });
    const v03 = await rpcError(rpc({ body: call("tasks/get", { id: missing }) }));
    expect(v03.error.code).toBe(-32001);
    expect(v03.error.data).not.toBeInstanceOf(Array);
    // The header still decides: a 1.0 name under 0.3 is no 0.3 method.
    expect((await rpcError(rpc({ body: call("GetTask", { id: missing }), version: "0.3" }))).error.code).toBe(
      -32601,
    );
  });

  it.each([
    ["GetTask", {}],
    ["GetTask", { id: "" }],
    ["GetTask", { id: "t", historyLength: -1 }],
    ["CancelTask", { id: 5 }],
    ["ListTasks", { pageSize: 0 }],
    ["ListTasks", { pageSize: 101 }],
    ["ListTasks", { pageSize: -1 }],
    ["ListTasks", { status: "INVALID_STATUS" }],
    ["ListTasks", { historyLength: -1 }],
    ["ListTasks", { statusTimestampAfter: "-1" }],
    ["ListTasks", { includeArtifacts: "yes" }],
    ["ListTasks", { pageToken: "invalid-token-xyz" }],
    ["tasks/get", { id: "t", historyLength: -2 }],
    ["tasks/cancel", {}],
  ])("answers %s with %j with -32602 Invalid params", async (method, params) => {
    const body = await rpcError(rpc({ body: call(method, params) }));
    expect(body.error.code, JSON.stringify(body)).toBe(-32602);
  });

  it.each([
    ["SubscribeToTask", {}],
    ["tasks/resubscribe", { id: "" }],
    ["SendStreamingMessage", { message: { messageId: "m", role: "ROLE_USER", parts: [] } }],
  ])("answers the streaming method %s with %j with -32602 in the stream", async (method, params) => {
    expect((await streamedError(rpc({ body: call(method, params) }))).error.code).toBe(-32602);
  });

  it("answers unsupported protocol versions with -32009 and other content types with -32005", async () => {
    const version = await rpcError(rpc({ body: call("SendMessage", {}), version: "2.0" }));
    expect(version.error).toMatchObject({ code: -32009, message: expect.stringContaining("2.0") });
    expect((await rpcError(rpc({ body: "hi", contentType: "text/plain" }))).error.code).toBe(-32005);
  });

  it("answers an oversized body with 413 and -32600 before reading it as JSON", async () => {
    const big = call("SendMessage", { message: { parts: [{ text: "x".repeat(1024 * 1024 + 10) }] } });
    expect((await rpcError(rpc({ body: big, version: "1.0" }), 413)).error.code).toBe(-32600);
  });

  it("answers bad params with -32602 and stores nothing: no session for the context, no task", async () => {
    const contextId = newContext();
    const empty = { message: { messageId: "m", role: "ROLE_USER", contextId, parts: [] } };
    expect((await rpcError(rpc({ body: call("SendMessage", empty), version: "1.0" }))).error.code).toBe(
      -32602,
    );
    expect((await rpcError(rpc({ body: call("SendMessage", {}), version: "1.0" }))).error.code).toBe(-32602);
    expect(await sessionOf(contextId)).toBeNull();
  });

  it("answers message metadata nested 3,000 levels deep with -32602 naming the depth, storing nothing, in both versions", async () => {
    for (const [method, version, role] of [
      ["SendMessage", "1.0", "ROLE_USER"],
      ["message/send", "0.3", "user"],
    ] as const) {
      const contextId = newContext();
      const deep = `${'{"k":'.repeat(3000)}1${"}".repeat(3000)}`;
      const message = JSON.stringify({
        messageId: "m",
        role,
        contextId,
        parts: [{ kind: "text", text: "hi" }],
      });
      const body = `{"jsonrpc":"2.0","id":9,"method":"${method}","params":{"message":${message.slice(0, -1)},"metadata":${deep}}}}`;
      const { id, error } = await rpcError(rpc({ body, version }));
      expect(id).toBe(9);
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(
        /^Invalid params: params\.message\.metadata\.k\..* nests deeper than 64 levels\.$/,
      );
      expect(await sessionOf(contextId)).toBeNull();
    }
  });

  it("answers a __proto__ key in params with -32602 and one outside params with -32600, storing nothing", async () => {
    const contextId = newContext();
    const message = `{"messageId":"m","role":"ROLE_USER","contextId":"${contextId}","parts":[{"text":"hi"}],"metadata":{"__proto__":{"admin":true}}}`;
    const inParams = `{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":${message}}}`;
    const refused = await rpcError(rpc({ body: inParams, version: "1.0" }));
    expect(refused.error).toMatchObject({
      code: -32602,
      message: 'Invalid params: Refused key "__proto__" in params.message.metadata.',
    });
    const outside = `{"jsonrpc":"2.0","id":4,"method":"SendMessage","constructor":{},"params":{}}`;
    expect((await rpcError(rpc({ body: outside, version: "1.0" }))).error.code).toBe(-32600);
    expect(await sessionOf(contextId)).toBeNull();
  });

  it("answers a context, task or message id over its limit with -32602 naming the limit, storing nothing", async () => {
    const contextId = "c".repeat(129);
    const message = { messageId: "m", role: "ROLE_USER", contextId, parts: [{ text: "hi" }] };
    const refused = await rpcError(rpc({ body: call("SendMessage", { message }), version: "1.0" }));
    expect(refused.error.code).toBe(-32602);
    expect(refused.error.message).toContain("a context id is at most 128 characters");
    expect(await sessionOf(contextId)).toBeNull();
    const longMessageId = { ...message, contextId: newContext(), messageId: "m".repeat(200) };
    const second = await rpcError(
      rpc({ body: call("SendMessage", { message: longMessageId }), version: "1.0" }),
    );
    expect(second.error.message).toContain("a message id is at most 128 characters");
    const get = await rpcError(rpc({ body: call("tasks/get", { id: "t".repeat(5000) }), version: "0.3" }));
    expect(get.error.code).toBe(-32602);
    expect(get.error.message).toContain("a task id is at most 192 characters");
  });

  it("refuses a message to a task of another context, or to a finished task, and stores nothing", async () => {
    const contextId = newContext();
    const send = (params: unknown) => rpcError(rpc({ body: call("SendMessage", params), version: "1.0" }));
    const text = { text: "hello" };
    const done = await send({ message: { messageId: "m1", role: "ROLE_USER", contextId, parts: [text] } });
    const taskId: string = done.result.task.id;
    const events = (await sessionOf(contextId))?.events;
    const foreign = await send({
      message: { messageId: "m2", role: "ROLE_USER", contextId: newContext(), taskId, parts: [text] },
    });
    expect(foreign.error.code).toBe(-32001);
    const closed = await send({
      message: { messageId: "m3", role: "ROLE_USER", contextId, taskId, parts: [text] },
    });
    expect(closed.error.code).toBe(-32004);
    expect((await sessionOf(contextId))?.events).toEqual(events);
  });

  it("requires the bearer token for JSON-RPC but serves the card without one, declaring the scheme", async () => {
    const res = await rpc({ body: call("GetTask", { id: "x" }), token: null });
    expect(res.status).toBe(401);
    const { fetchImpl } = a2aWorker({ apps: [demoApp], services });
    const card = await fetchImpl(`${BASE_URL}/a2a/demo/.well-known/agent-card.json`, {
      headers: { authorization: "" },
    });
    expect(card.status).toBe(200);
    expect(await card.json()).toMatchObject({
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", httpAuthSecurityScheme: { scheme: "bearer" } },
      },
      security: [{ bearer: [] }],
      securityRequirements: [{ schemes: { bearer: {} } }], // ProtoJSON leaves out the empty scope list
    });
  });
});

describe("the agent card of /a2a/:app", () => {
  it("is built from the root agent, readable as A2A 1.0 and 0.3, at both well-known paths", async () => {
    const { fetchImpl } = a2aWorker(
      { apps: [demoApp], services },
      // Serving without tokens, a Worker answers only its own hosts (decision 048): baton.test is the tests'.
      { API_TOKENS: undefined, ALLOW_UNAUTHENTICATED: "true", ALLOWED_HOSTS: "baton.test" },
    );
    const res = await fetchImpl(`${BASE_URL}/a2a/demo/.well-known/agent-card.json`);
    const card = CardSchema.parse(await res.json());
    const url = `${BASE_URL}/a2a/demo`;
    expect(card).toMatchObject({
      name: "concierge",
      description: demoApp.rootAgent.description,
      supportedInterfaces: [
        { url, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
        { url, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      ],
      url,
      preferredTransport: "JSONRPC",
      additionalInterfaces: [{ url, transport: "JSONRPC" }],
      protocolVersion: "0.3",
      capabilities: { streaming: true },
      defaultInputModes: expect.arrayContaining(["text/plain"]),
    });
    expect(card.skills.map((s) => [s.id, s.description])).toEqual(
      demoApp.rootAgent.subAgents.map((a) => [a.name, a.description]),
    );
    expect(card.securitySchemes).toBeUndefined();
    expect(
      CardSchema.parse(await (await fetchImpl(`${BASE_URL}/a2a/demo/.well-known/agent.json`)).json()),
    ).toEqual(card);
    expect((await fetchImpl(`${BASE_URL}/a2a/nope/.well-known/agent-card.json`)).status).toBe(404);
  });

  it("is at the host's root too, for the only app, or for the app a2a.defaultApp names", async () => {
    const open = { API_TOKENS: undefined, ALLOW_UNAUTHENTICATED: "true", ALLOWED_HOSTS: "baton.test" };
    const only = a2aWorker({ apps: [demoApp], services }, open);
    const root = await only.fetchImpl(`${BASE_URL}/.well-known/agent-card.json`);
    expect(root.status).toBe(200);
    const app = await only.fetchImpl(`${BASE_URL}/a2a/demo/.well-known/agent-card.json`);
    expect(await root.json()).toEqual(await app.json());

    const other = { ...demoApp, name: "other" };
    const two = a2aWorker({ apps: [demoApp, other], services }, open);
    const none = await two.fetchImpl(`${BASE_URL}/.well-known/agent-card.json`);
    expect(none.status).toBe(404);
    expect(await none.text()).toContain("a2a.defaultApp");
    const named = a2aWorker({ apps: [demoApp, other], services, a2a: { defaultApp: "other" } }, open);
    const card = await (await named.fetchImpl(`${BASE_URL}/.well-known/agent.json`)).json();
    expect(card).toMatchObject({ url: `${BASE_URL}/a2a/other` });
    expect(() => a2aWorker({ apps: [demoApp], a2a: { defaultApp: "nope" } })).toThrow(/defaultApp/);
  });

  it("answers JSON-RPC at the host's root for the default app, with the same token rule", async () => {
    const { fetchImpl } = a2aWorker({ apps: [demoApp], services });
    const missing = `${crypto.randomUUID()}:${newContext()}`;
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: missing } });
    const headers = { "content-type": "application/json" };
    const res = await fetchImpl(`${BASE_URL}/`, { method: "POST", body, headers });
    expect(await res.json()).toMatchObject({ id: 1, error: { code: -32001 } });
    const bare = await fetchImpl(`${BASE_URL}/`, {
      method: "POST",
      body,
      headers: { ...headers, authorization: "" },
    });
    expect(bare.status).toBe(401);
  });
});
