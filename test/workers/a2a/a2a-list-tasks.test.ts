import { type ListTasksRequest, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { a2aWorker, asTask, userMessage, v1Client } from "../support/a2a.js";
import { scriptedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";

const services = { sleep: noSleep, log: () => undefined };
/** An app of its own per test: its task index holds only this test's tasks. */
const freshApp = () => scriptedApp(`list-${crypto.randomUUID().slice(0, 8)}`, [{ text: "done" }]);
/** A full `ListTasksRequest`, as the SDK's types ask for, with these fields set. */
const listing = (fields: Partial<ListTasksRequest>): ListTasksRequest => ({
  tenant: "",
  contextId: "",
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageToken: "",
  statusTimestampAfter: undefined,
  ...fields,
});

describe("ListTasks (A2A 1.0) with the @a2a-js/sdk client", () => {
  it("pages through an app's tasks newest first, filters by context and state, and cuts history and artifacts", async () => {
    const app = freshApp();
    const { fetchImpl } = a2aWorker({ apps: [app], services });
    const client = await v1Client(fetchImpl, app.name);
    const contextId = crypto.randomUUID();
    const sent = [];
    for (const [i, context] of [contextId, crypto.randomUUID(), contextId].entries())
      sent.push(
        asTask(
          await client.sendMessage({ message: userMessage(`task ${i}`, { contextId: context }) } as never),
        ),
      );
    const newestFirst = sent.map((t) => t.id).reverse();

    const first = await client.listTasks(listing({ pageSize: 2 }));
    expect(first.tasks.map((t) => t.id)).toEqual(newestFirst.slice(0, 2));
    expect(first).toMatchObject({ pageSize: 2, totalSize: 3 });
    expect(first.nextPageToken).not.toBe("");
    const second = await client.listTasks(listing({ pageSize: 2, pageToken: first.nextPageToken }));
    expect(second.tasks.map((t) => t.id)).toEqual(newestFirst.slice(2));
    expect(second).toMatchObject({ pageSize: 1, totalSize: 3, nextPageToken: "" });

    const inContext = await client.listTasks(listing({ contextId }));
    expect(inContext.tasks.map((t) => t.id)).toEqual([sent[2]?.id, sent[0]?.id]);
    expect(inContext.tasks.every((t) => t.artifacts.length === 0)).toBe(true);
    expect(inContext.tasks[0]?.history.length).toBeGreaterThan(1);

    const cut = await client.listTasks(listing({ contextId, historyLength: 1, includeArtifacts: true }));
    expect(cut.tasks.map((t) => t.history.length)).toEqual([1, 1]);
    expect(cut.tasks.map((t) => t.artifacts.length)).toEqual([1, 1]);

    const completed = await client.listTasks(listing({ status: TaskState.TASK_STATE_COMPLETED }));
    expect(completed.totalSize).toBe(3);
    const working = await client.listTasks(listing({ status: TaskState.TASK_STATE_WORKING }));
    expect(working).toMatchObject({ tasks: [], totalSize: 0, nextPageToken: "" });

    const after = sent[2]?.status?.timestamp ?? "";
    const recent = await client.listTasks(listing({ statusTimestampAfter: after }));
    expect(recent.tasks.map((t) => t.id)).toEqual([sent[2]?.id]);
  });

  it("lists nothing for a context with no tasks", async () => {
    const app = freshApp();
    const { fetchImpl } = a2aWorker({ apps: [app], services });
    const client = await v1Client(fetchImpl, app.name);
    const empty = await client.listTasks(listing({ contextId: crypto.randomUUID() }));
    expect(empty).toMatchObject({ tasks: [], totalSize: 0, pageSize: 0, nextPageToken: "" });
  });
});
