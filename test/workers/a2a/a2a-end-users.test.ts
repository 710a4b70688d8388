import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Session } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
import { type Call, callWorker, expectJson, freshIds, noSleep } from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";

type RpcAnswer = { result?: Record<string, unknown>; error?: { code: number; message: string } };
type Listed = { tasks: { id: string; contextId: string }[]; totalSize: number };

/** One A2A 1.0 JSON-RPC call (no `A2A-Version`: the method's name says 1.0) as `token`. */
async function rpc(call: Call, app: string, token: string | undefined, method: string, params: unknown) {
  const json = { jsonrpc: "2.0", id: 1, method, params };
  return expectJson<RpcAnswer>(
    call(`/a2a/${app}`, { method: "POST", json, ...(token ? { token } : {}) }),
    200,
  );
}

const send = (text: string, contextId: string) => ({
  message: { messageId: crypto.randomUUID(), role: "ROLE_USER", contextId, parts: [{ text }] },
});

describe("A2A with end users' JWTs (end-user mode, decision 022)", () => {
  it("runs each end user's contexts in their own sessions, and lists, reads and changes only their own tasks", async () => {
    const issuer = await testIssuer();
    const { app, id } = freshIds("a2au");
    const root = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
    const call = callWorker(
      {
        apps: [defineApp({ name: app, rootAgent: root })],
        services: { sleep: noSleep, fetch: issuer.fetch },
      },
      issuer.vars,
    );
    const alice = `alice-${id}`;
    const bob = `bob-${id}`;
    const asAlice = await issuer.token({ sub: alice });
    const asBob = await issuer.token({ sub: bob });
    // Both name the same context: each gets a session of their own under that id.
    const contextId = `ctx-${id}`;
    const aliceTask = (await rpc(call, app, asAlice, "SendMessage", send("hello", contextId))).result
      ?.task as {
      id: string;
    };
    const bobTask = (await rpc(call, app, asBob, "SendMessage", send("hi", contextId))).result?.task as {
      id: string;
    };
    expect(aliceTask.id).not.toBe(bobTask.id);
    for (const user of [alice, bob])
      expect(
        (await expectJson<Session>(call(`/apps/${app}/users/${user}/sessions/${contextId}`), 200)).userId,
      ).toBe(user);

    const aliceList = (await rpc(call, app, asAlice, "ListTasks", {})).result as Listed;
    expect(aliceList.tasks.map((t) => t.id)).toEqual([aliceTask.id]);
    expect(aliceList.totalSize).toBe(1);
    const bobList = (await rpc(call, app, asBob, "ListTasks", { contextId })).result as Listed;
    expect(bobList.tasks.map((t) => t.id)).toEqual([bobTask.id]);
    // A service token lists every task of the app.
    const all = (await rpc(call, app, undefined, "ListTasks", { contextId })).result as Listed;
    expect(all.tasks.map((t) => t.id).sort()).toEqual([aliceTask.id, bobTask.id].sort());

    expect((await rpc(call, app, asAlice, "GetTask", { id: aliceTask.id })).result?.id).toBe(aliceTask.id);
    for (const [method, params] of [
      ["GetTask", { id: aliceTask.id }],
      ["CancelTask", { id: aliceTask.id }],
      ["ListTaskPushNotificationConfigs", { taskId: aliceTask.id }],
    ] as const)
      expect((await rpc(call, app, asBob, method, params)).error?.code, method).toBe(-32001);
  });

  it("refuses an end user the apps their token does not cover, and a reserved subject", async () => {
    const issuer = await testIssuer();
    const { app } = freshIds("a2au");
    const root = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
    const call = callWorker(
      {
        apps: [defineApp({ name: app, rootAgent: root })],
        services: { sleep: noSleep, fetch: issuer.fetch },
      },
      { ...issuer.vars, JWT_APPS_CLAIM: "apps" },
    );
    const json = { jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} };
    const elsewhere = await issuer.token({ sub: "carol", apps: ["another-app"] });
    await expectJson(call(`/a2a/${app}`, { method: "POST", json, token: elsewhere }), 403);
    const reserved = await issuer.token({ sub: "baton:a2a:someone", apps: [app] });
    await expectJson(call(`/a2a/${app}`, { method: "POST", json, token: reserved }), 403);
    await expectJson(call(`/a2a/${app}/tasks`, { token: elsewhere }), 403);
  });
});
