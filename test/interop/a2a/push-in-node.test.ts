import { type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { directPush } from "../../../src/a2a/server/direct-push.js";
import { pushPolicyFromList } from "../../../src/a2a/server/push-policy.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { createAdkApi } from "../../../src/handlers/api.js";
import { defineApp } from "../../../src/runner/app.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { type PushReceiver, type ReceivedPush, startPushReceiver } from "../../support/push-receiver.js";
import { testServices } from "../../unit/support/run-helpers.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";

let receiver: PushReceiver;
beforeAll(async () => {
  receiver = await startPushReceiver();
});
afterAll(async () => receiver?.close());

/** An app whose agent waits at a gate the test opens, so its task stays `working` until then. */
function gatedApp() {
  let open = (): void => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const waitGate = functionTool({
    name: "wait_gate",
    description: "Waits for the gate",
    parameters: z.object({}),
    execute: async () => {
      await gate;
      return { opened: true };
    },
  });
  const model = scriptedModel([
    { calls: [{ name: "wait_gate", args: {}, id: "call-gate" }] },
    { text: "done" },
  ]);
  const root = new LlmAgent({
    name: "gatekeeper",
    description: "Waits at a gate.",
    model,
    tools: [waitGate],
  });
  return { app: defineApp({ name: "gated", rootAgent: root }), open };
}

/** `createAdkApi` in Node over an in-memory store whose writes `directPush` delivers (no queue). */
async function nodeServer(app: ReturnType<typeof gatedApp>["app"], pushOn = true): Promise<Client> {
  const services = testServices();
  const policy = pushPolicyFromList("127.0.0.1");
  const store = new InMemorySessionStore({
    clock: services.clock,
    ids: { uuid: () => crypto.randomUUID() },
    onPush: directPush({ fetch, policy, log: () => undefined, sleep: async () => undefined }),
  });
  const http = createAdkApi(() => ({
    apps: new Map([[app.name, app]]),
    sessionStore: store,
    taskStore: store,
    services,
    ...(pushOn ? { a2aPush: policy } : {}),
  }));
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    request.headers.set("authorization", "Bearer node-token");
    return http.fetch(request, { API_TOKENS: "node-token" });
  };
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return new ClientFactory(options).createFromUrl(`http://baton.test/a2a/${app.name}/`);
}

const message = (): Message => ({
  messageId: crypto.randomUUID(),
  contextId: "",
  taskId: "",
  role: Role.ROLE_USER,
  parts: [{ content: { $case: "text", value: "go" }, metadata: undefined, filename: "", mediaType: "" }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const stateOf = (push: ReceivedPush) =>
  (push.body as { task: { status: { state: string } } }).task.status.state;

describe("A2A push notifications from createAdkApi in Node (an InMemorySessionStore with directPush)", () => {
  it("POSTs each status change of a task that keeps working, retrying a receiver that answers 503", async () => {
    const { app, open } = gatedApp();
    const client = await nodeServer(app);
    const id = crypto.randomUUID();
    const path = `/node/${id}`;
    const flaky = `/node/${id}/fail-2`;
    const result = await client.sendMessage({
      tenant: "",
      message: message(),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: {
          tenant: "",
          id: "",
          taskId: "",
          url: `${receiver.origin}${path}`,
          token: `tok-${id}`,
          authentication: undefined,
        },
        returnImmediately: true,
      },
      metadata: undefined,
    });
    const task = result as Task;
    await client.createTaskPushNotificationConfig({
      tenant: "",
      id: "flaky",
      taskId: task.id,
      url: `${receiver.origin}${flaky}`,
      token: "",
      authentication: { scheme: "Basic", credentials: "dXNlcjpwdw==" },
    });
    // The turn waits at the gate: the receiver is told the task is working, and nothing more yet.
    const working = await receiver.waitFor(path, (pushes) =>
      pushes.some((p) => stateOf(p) === "TASK_STATE_WORKING"),
    );
    expect(working.map(stateOf)).not.toContain("TASK_STATE_COMPLETED");
    open();
    const pushes = await receiver.waitFor(path, (all) =>
      all.some((p) => stateOf(p) === "TASK_STATE_COMPLETED"),
    );
    const last = pushes.at(-1) as ReceivedPush;
    expect(stateOf(last)).toBe("TASK_STATE_COMPLETED");
    expect(pushes.every((p) => p.headers["x-a2a-notification-token"] === `tok-${id}`)).toBe(true);
    expect((last.body as { task: { id: string } }).task.id).toBe(task.id);
    const retried = await receiver.waitFor(flaky, (all) =>
      all.some((p) => p.status === 200 && stateOf(p) === "TASK_STATE_COMPLETED"),
    );
    expect(retried.slice(0, 2).map((p) => p.status)).toEqual([503, 503]);
    expect(retried.every((p) => p.headers.authorization === "Basic dXNlcjpwdw==")).toBe(true);
    expect(retried.every((p) => p.headers["x-a2a-notification-token"] === undefined)).toBe(true);
    expect(task.status?.state).not.toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("says pushNotifications: false and refuses configs (-32003), inline ones before any task starts, when push is off", async () => {
    const { app, open } = gatedApp();
    open();
    const client = await nodeServer(app, false);
    expect((await client.getAgentCard()).capabilities?.pushNotifications).toBe(false);
    const inline = {
      tenant: "",
      id: "",
      taskId: "",
      url: `${receiver.origin}/off`,
      token: "",
      authentication: undefined,
    };
    await expect(
      client.sendMessage({
        tenant: "",
        message: message(),
        configuration: {
          acceptedOutputModes: [],
          taskPushNotificationConfig: inline,
          returnImmediately: false,
        },
        metadata: undefined,
      }),
    ).rejects.toThrow(/push notifications/i);
    expect(receiver.received.filter((r) => r.path === "/off")).toEqual([]);
  });
});
