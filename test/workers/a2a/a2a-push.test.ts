import { type Task, TaskState } from "@a2a-js/sdk";
import { describe, expect, inject, it } from "vitest";
import type { ReceivedPush } from "../../support/push-receiver.js";
import { a2aWorker, BASE_URL, userMessage, v1Client } from "../support/a2a.js";
import { gatedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";

const receiverUrl = inject("pushReceiverUrl");
const services = { sleep: noSleep, log: () => undefined };

/** The pushes the receiver got at `path`, once `until` holds of them (the queue consumer runs on its own). */
async function pushesTo(path: string, until: (pushes: ReceivedPush[]) => boolean): Promise<ReceivedPush[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const pushes: ReceivedPush[] = await (await fetch(`${receiverUrl}${path}`)).json();
    if (until(pushes)) return pushes;
    if (Date.now() > deadline) throw new Error(`No matching push at ${path}: ${JSON.stringify(pushes)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const stateOf = (push: ReceivedPush) =>
  (push.body as { task: { status: { state: string } } }).task.status.state;
const reached = (state: string) => (pushes: ReceivedPush[]) =>
  pushes.some((p) => p.status === 200 && stateOf(p) === state);

const config = (url: string, fields: { id?: string; token?: string; taskId?: string } = {}) => ({
  tenant: "",
  id: fields.id ?? "",
  taskId: fields.taskId ?? "",
  url,
  token: fields.token ?? "",
  authentication: undefined,
});

describe("A2A push notifications through the A2A_PUSH queue (session objects enqueue, the Worker's consumer POSTs)", () => {
  it("tells each config of a working task its status changes, newest last, retrying a receiver that answers 503", async () => {
    const gate = gatedApp(`push-${crypto.randomUUID().slice(0, 8)}`);
    const { fetchImpl } = a2aWorker({ apps: [gate.app], services });
    const client = await v1Client(fetchImpl, gate.app.name);
    expect((await client.getAgentCard()).capabilities?.pushNotifications).toBe(true);
    const id = crypto.randomUUID();
    const result = await client.sendMessage({
      tenant: "",
      message: userMessage("go"),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: config(`${receiverUrl}/q/${id}`, { token: `tok-${id}` }),
        returnImmediately: true,
      },
      metadata: undefined,
    });
    const task = result as Task;
    await gate.reached;
    const working = await pushesTo(`/q/${id}`, reached("TASK_STATE_WORKING"));
    expect(working.map(stateOf)).not.toContain("TASK_STATE_COMPLETED");
    expect(working[0]?.headers["x-a2a-notification-token"]).toBe(`tok-${id}`);
    // Set while the task works: told of what comes next, after a 503 (the queue retries it).
    await client.createTaskPushNotificationConfig(
      config(`${receiverUrl}/q/${id}/fail-1`, { taskId: task.id }),
    );
    const dropped = await client.createTaskPushNotificationConfig(
      config(`${receiverUrl}/q/${id}/dropped`, { taskId: task.id }),
    );
    await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: dropped.id });
    gate.open();
    const all = await pushesTo(`/q/${id}`, reached("TASK_STATE_COMPLETED"));
    expect(all.map(stateOf).at(-1)).toBe("TASK_STATE_COMPLETED");
    expect(all.every((p) => (p.body as { task: Task }).task.id === task.id)).toBe(true);
    const retried = await pushesTo(`/q/${id}/fail-1`, reached("TASK_STATE_COMPLETED"));
    expect(retried.map((p) => p.status)).toEqual([503, 200]);
    const after = await fetch(`${receiverUrl}/q/${id}/dropped`);
    expect(await after.json()).toEqual([]);
  }, 60_000);

  it("serves the configs over HTTP+JSON's routes: 201 on create, 204 on delete, 404 for an unknown task", async () => {
    const gate = gatedApp(`push-rest-${crypto.randomUUID().slice(0, 8)}`);
    gate.open();
    // A host name is a push target only when the push hosts name it (decision 048).
    const { fetchImpl } = a2aWorker(
      { apps: [gate.app], services },
      { A2A_PUSH_HOSTS: "*,127.0.0.1,hooks.example" },
    );
    const client = await v1Client(fetchImpl, gate.app.name);
    const task = (await client.sendMessage({
      tenant: "",
      message: userMessage("go"),
      configuration: undefined,
      metadata: undefined,
    })) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const base = `${BASE_URL}/a2a/${gate.app.name}/tasks/${encodeURIComponent(task.id)}/pushNotificationConfigs`;
    const created = await fetchImpl(base, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "r1", url: "https://hooks.example/r1", token: "t" }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({
      id: "r1",
      taskId: task.id,
      url: "https://hooks.example/r1",
      token: "t",
    });
    expect(await (await fetchImpl(`${base}/r1`)).json()).toMatchObject({ id: "r1" });
    expect(await (await fetchImpl(base)).json()).toMatchObject({ configs: [{ id: "r1" }] });
    // JSON-RPC with the proto field names (`task_id`), which ProtoJSON parsers accept as the JSON names.
    const rpc = {
      jsonrpc: "2.0",
      id: 1,
      method: "ListTaskPushNotificationConfigs",
      params: { task_id: task.id },
    };
    const listed = await fetchImpl(`${BASE_URL}/a2a/${gate.app.name}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(rpc),
    });
    expect(await listed.json()).toMatchObject({ result: { configs: [{ id: "r1", taskId: task.id }] } });
    expect((await fetchImpl(`${base}/r1`, { method: "DELETE" })).status).toBe(204);
    expect((await fetchImpl(`${base}/r1`)).status).toBe(404);
    const refused = await fetchImpl(base, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "http://169.254.169.254/latest" }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { status: "INVALID_ARGUMENT" } });
    const unknown = `${BASE_URL}/a2a/${gate.app.name}/tasks/${crypto.randomUUID()}:${crypto.randomUUID()}/pushNotificationConfigs`;
    expect((await fetchImpl(unknown)).status).toBe(404);
  }, 60_000);
});
