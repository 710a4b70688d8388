import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { a2aWorker, BASE_URL, userMessage, v1Client } from "../support/a2a.js";
import { gatedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";

const services = { sleep: noSleep, log: () => undefined };

describe("an A2A task whose turn its session stops", () => {
  it("ends canceled when the session's cancel endpoint stops its turn, not left working", async () => {
    const gated = gatedApp(`stop-${crypto.randomUUID().slice(0, 8)}`);
    const { fetchImpl } = a2aWorker({ apps: [gated.app], services });
    const client = await v1Client(fetchImpl, gated.app.name);
    const stream = client.sendMessageStream({ message: userMessage("go") } as never);
    const first = (await stream.next()).value;
    const task = first?.payload?.$case === "task" ? first.payload.value : undefined;
    if (!task) throw new Error("the stream did not start with the task");
    await gated.reached;

    const session = `/apps/${gated.app.name}/users/A2A_USER_${task.contextId}/sessions/${task.contextId}`;
    const stopped = await fetchImpl(`${BASE_URL}${session}/cancel`, { method: "POST" });
    expect(await stopped.json()).toMatchObject({ canceled: true });
    for await (const _ of stream);
    const after = await client.getTask({ tenant: "", id: task.id, historyLength: undefined } as never);
    expect(after.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    gated.open();
  });
});
