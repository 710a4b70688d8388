import { type ListTasksRequest, type StreamResponse, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { demoApp } from "../../../src/demo/app.js";
import { a2aWorker, asTask, BASE_URL, kindOf, restClient, userMessage } from "../support/a2a.js";
import { scriptedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";

const services = { sleep: noSleep, log: () => undefined };
const listing = (fields: Partial<ListTasksRequest>): ListTasksRequest => ({
  tenant: "",
  contextId: "",
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageToken: "",
  statusTimestampAfter: undefined,
  ...fields,
});

describe("A2A 1.0 over HTTP+JSON with the @a2a-js/sdk REST client", () => {
  it("picks HTTP+JSON from the card, sends, gets, streams and lists through the same handler as JSON-RPC", async () => {
    const app = scriptedApp(`rest-${crypto.randomUUID().slice(0, 8)}`, [{ text: "done" }]);
    const { fetchImpl, settle } = a2aWorker({ apps: [app], services });
    const client = await restClient(fetchImpl, app.name);
    const contextId = crypto.randomUUID();
    const task = asTask(await client.sendMessage({ message: userMessage("hello", { contextId }) } as never));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const read = await client.getTask({ tenant: "", id: task.id, historyLength: 1 });
    expect(read.id).toBe(task.id);
    expect(read.history).toHaveLength(1);

    const items: StreamResponse[] = [];
    for await (const item of client.sendMessageStream({
      message: userMessage("again", { contextId }),
    } as never))
      items.push(item);
    await settle();
    expect(items.map(kindOf)[0]).toBe(`task:${TaskState.TASK_STATE_SUBMITTED}`);
    expect(items.map(kindOf).at(-1)).toBe(`status:${TaskState.TASK_STATE_COMPLETED}`);

    const first = await client.listTasks(listing({ contextId, pageSize: 1 }));
    expect(first).toMatchObject({ pageSize: 1, totalSize: 2 });
    const second = await client.listTasks(
      listing({ contextId, pageSize: 1, pageToken: first.nextPageToken }),
    );
    expect(second.tasks.map((t) => t.id)).toEqual([task.id]);
    expect(second.nextPageToken).toBe("");
  });

  it("answers refusals with A2A's HTTP status and error body", async () => {
    const { fetchImpl } = a2aWorker({ apps: [demoApp], services });
    const missing = `${crypto.randomUUID()}:${crypto.randomUUID()}`;
    const get = await fetchImpl(`${BASE_URL}/a2a/demo/tasks/${encodeURIComponent(missing)}`);
    expect(get.status).toBe(404);
    expect(await get.json()).toMatchObject({
      error: { code: 404, status: "NOT_FOUND", details: [{ reason: "TASK_NOT_FOUND" }] },
    });
    const cancel = await fetchImpl(`${BASE_URL}/a2a/demo/tasks/${missing}:cancel`, { method: "POST" });
    expect(cancel.status).toBe(404);
    const badPage = await fetchImpl(`${BASE_URL}/a2a/demo/tasks?pageSize=0`);
    expect(badPage.status).toBe(400);
    expect(await badPage.json()).toMatchObject({ error: { status: "INVALID_ARGUMENT" } });
    const badState = await fetchImpl(`${BASE_URL}/a2a/demo/tasks?status=NOPE&includeArtifacts=maybe`);
    expect(badState.status).toBe(400);
    const noMessage = await fetchImpl(`${BASE_URL}/a2a/demo/message:send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [] } }),
    });
    expect(noMessage.status).toBe(400);
    const version = await fetchImpl(`${BASE_URL}/a2a/demo/tasks`, { headers: { "A2A-Version": "0.3" } });
    expect(version.status).toBe(400);
    expect(await version.json()).toMatchObject({ error: { details: [{ reason: "VERSION_NOT_SUPPORTED" }] } });
  });
});
