import { env } from "cloudflare:workers";
import { type StreamResponse, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { demoApp } from "../../../src/demo/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { a2aWorker, asTask, BASE_URL, kindOf, textOf, userMessage, v03Client } from "../support/a2a.js";
import { gatedApp, scriptedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";

// Agent failures are expected here and checked in the stored events, so the log port is quiet.
const services = { sleep: noSleep, log: () => undefined };
const lastEvent = async (app: string, contextId: string) =>
  (
    await new DurableObjectSessionStore(env).getSession({
      appName: app,
      userId: `A2A_USER_${contextId}`,
      sessionId: contextId,
    })
  )?.events.at(-1);

/** The `data:` frames of a v0.3 SSE body, parsed. */
async function frames(response: Response): Promise<{ result?: Record<string, unknown>; error?: unknown }[]> {
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((f) => f.startsWith("data: "))
    .map((f) => JSON.parse(f.slice("data: ".length)));
}

describe("A2A 0.3 with the @a2a-js/sdk v0.3 JSON-RPC transport", () => {
  it("answers message/send with a completed task carrying the demo app's answer as its artifact", async () => {
    const { fetchImpl } = a2aWorker({ apps: [demoApp], services });
    const client = await v03Client(fetchImpl, "demo");
    const task = asTask(
      await client.sendMessage({ message: userMessage("I need a refund for my last invoice") } as never),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(task.artifacts[0]?.parts)).toBe(
      (await lastEvent("demo", task.contextId))?.content?.parts?.[0]?.text,
    );
  });

  it("streams message/stream on the 0.3 wire: kind fields, working updates, the artifact, then completed with final: true", async () => {
    const { fetchImpl, settle } = a2aWorker({ apps: [demoApp], services });
    const body = {
      jsonrpc: "2.0",
      id: "s-1",
      method: "message/stream",
      params: {
        message: {
          kind: "message",
          messageId: "m-1",
          role: "user",
          parts: [{ kind: "text", text: "Weather in Lisbon?" }],
        },
      },
    };
    const response = await fetchImpl(`${BASE_URL}/a2a/demo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const results = (await frames(response)).map((f) => f.result ?? {});
    await settle();
    expect(results[0]).toMatchObject({ kind: "task", status: { state: "submitted" } });
    expect(results.at(-2)).toMatchObject({ kind: "artifact-update", lastChunk: true });
    expect(results.at(-1)).toMatchObject({
      kind: "status-update",
      status: { state: "completed" },
      final: true,
    });
    const middle = results.slice(1, -2);
    expect(middle.length).toBeGreaterThan(1);
    for (const update of middle)
      expect(update).toMatchObject({ kind: "status-update", status: { state: "working" }, final: false });
  });

  it("ends a failing agent's task failed with its error message, through the SDK client", async () => {
    const app = scriptedApp(`fail03-${crypto.randomUUID().slice(0, 8)}`, [
      { fail: 400, message: "no such model" },
    ]);
    const client = await v03Client(a2aWorker({ apps: [app], services }).fetchImpl, app.name);
    const items: StreamResponse[] = [];
    for await (const item of client.sendMessageStream({ message: userMessage("hi") } as never))
      items.push(item);
    expect(items.map(kindOf).at(-1)).toBe(`status:${TaskState.TASK_STATE_FAILED}`);
    const last = items.at(-1)?.payload;
    const status = last?.$case === "statusUpdate" ? last.value.status : undefined;
    const task = items[0]?.payload?.$case === "task" ? items[0].payload.value : undefined;
    expect(textOf(status?.message?.parts)).toBe(
      (await lastEvent(app.name, task?.contextId ?? ""))?.errorMessage,
    );
    expect(textOf(status?.message?.parts)).toContain("no such model");
  });

  it("cancels with tasks/cancel, reads with tasks/get, and resubscribes with tasks/resubscribe after a dropped stream", async () => {
    const gated = gatedApp(`g03-${crypto.randomUUID().slice(0, 8)}`);
    const worker = a2aWorker({ apps: [gated.app], services });
    const client = await v03Client(worker.fetchImpl, gated.app.name);
    const stream = client.sendMessageStream({ message: userMessage("go") } as never);
    const first = (await stream.next()).value;
    await stream.return(undefined); // the client drops the stream
    const task = first?.payload?.$case === "task" ? first.payload.value : undefined;
    if (!task) throw new Error("no task");
    await gated.reached;

    const again = await v03Client(a2aWorker({ apps: [gated.app], services }).fetchImpl, gated.app.name);
    const resubscribed = again.resubscribeTask({ id: task.id } as never);
    expect(kindOf((await resubscribed.next()).value ?? {})).toBe(`task:${TaskState.TASK_STATE_WORKING}`);
    expect((await again.getTask({ id: task.id } as never)).status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await again.cancelTask({ id: task.id } as never)).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    const rest: StreamResponse[] = [];
    for await (const item of resubscribed) rest.push(item);
    expect(rest.map(kindOf)).toEqual([`status:${TaskState.TASK_STATE_CANCELED}`]);
    gated.open();
    await worker.settle();
    expect(await lastEvent(gated.app.name, task.contextId)).toMatchObject({ errorCode: "TURN_CANCELED" });
    expect((await again.getTask({ id: task.id } as never)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});
