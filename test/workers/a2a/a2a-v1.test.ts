import { env } from "cloudflare:workers";
import { StreamResponse as Codec, type StreamResponse, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { unansweredMessage } from "../../../src/core/open-calls.js";
import { demoApp } from "../../../src/demo/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { a2aWorker, asTask, kindOf, storedUpdates, textOf, userMessage, v1Client } from "../support/a2a.js";
import { approvalApp, gatedApp, scriptedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";

// Agent failures are expected here and checked in the stored events, so the log port is quiet.
const services = { sleep: noSleep, log: () => undefined };
const sessionKey = (app: string, contextId: string) => ({
  appName: app,
  userId: `A2A_USER_${contextId}`,
  sessionId: contextId,
});
const storedEvents = async (app: string, contextId: string) =>
  (await new DurableObjectSessionStore(env).getSession(sessionKey(app, contextId)))?.events ?? [];

describe("A2A 1.0 with the @a2a-js/sdk client", () => {
  it("answers a blocking send with a completed task whose artifact is the demo app's answer, stored in a new session", async () => {
    const { fetchImpl } = a2aWorker({ apps: [demoApp], services });
    const client = await v1Client(fetchImpl, "demo");
    const task = asTask(
      await client.sendMessage({ message: userMessage("I need a refund for my last invoice") } as never),
    );

    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const events = await storedEvents("demo", task.contextId);
    const answer = events.at(-1);
    expect(answer?.author).toBe("billing");
    expect(task.artifacts).toHaveLength(1);
    expect(textOf(task.artifacts[0]?.parts)).toBe(answer?.content?.parts?.[0]?.text);
    expect(task.history[0]?.parts).toEqual(userMessage("I need a refund for my last invoice").parts);
    expect(events[0]?.content?.parts?.[0]?.text).toBe("I need a refund for my last invoice");
  });

  it("streams the task, working updates (partial text among them), the artifact, then completed, in that order", async () => {
    const { fetchImpl, settle } = a2aWorker({ apps: [demoApp], services });
    const client = await v1Client(fetchImpl, "demo");
    const items: StreamResponse[] = [];
    for await (const item of client.sendMessageStream({
      message: userMessage("What is the weather in Lisbon?"),
    } as never))
      items.push(item);
    await settle();

    const kinds = items.map(kindOf);
    expect(kinds[0]).toBe(`task:${TaskState.TASK_STATE_SUBMITTED}`);
    expect(kinds.at(-2)).toBe("artifactUpdate");
    expect(kinds.at(-1)).toBe(`status:${TaskState.TASK_STATE_COMPLETED}`);
    const middle = kinds.slice(1, -2);
    expect(middle.length).toBeGreaterThan(2);
    expect(new Set(middle)).toEqual(new Set([`status:${TaskState.TASK_STATE_WORKING}`]));
    const partial = items.filter(
      (i) => i.payload?.$case === "statusUpdate" && i.payload.value.status?.message?.metadata?.adk_partial,
    );
    expect(partial.length).toBeGreaterThan(0);
    // What was stored is what was streamed, minus the partial text (sent only).
    const first = items[0]?.payload;
    const taskId = first?.$case === "task" ? first.value.id : "";
    const contextId = first?.$case === "task" ? first.value.contextId : "";
    expect(await storedUpdates(sessionKey("demo", contextId), taskId)).toHaveLength(
      items.length - partial.length,
    );
  });

  it("ends a failing agent's task failed, with the stored error event's message as the status message", async () => {
    const app = scriptedApp(`fail-${crypto.randomUUID().slice(0, 8)}`, [
      { fail: 400, message: "the model refused: quota" },
    ]);
    const { fetchImpl } = a2aWorker({ apps: [app], services });
    const client = await v1Client(fetchImpl, app.name);
    const task = asTask(await client.sendMessage({ message: userMessage("hello") } as never));

    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const error = (await storedEvents(app.name, task.contextId)).at(-1);
    expect(error?.errorMessage).toContain("the model refused: quota");
    expect(textOf(task.status?.message?.parts)).toBe(error?.errorMessage);
    expect(task.status?.message?.metadata?.adk_error_code).toBe(error?.errorCode);
    expect(task.artifacts).toEqual([]);
  });

  it("cancels a running task: canceled at once, the turn stops at its next append with a stored cancel event, and the context takes a new message", async () => {
    const gated = gatedApp(`cancel-${crypto.randomUUID().slice(0, 8)}`);
    const { fetchImpl, settle } = a2aWorker({ apps: [gated.app], services });
    const client = await v1Client(fetchImpl, gated.app.name);
    const stream = client.sendMessageStream({ message: userMessage("go") } as never);
    const first = (await stream.next()).value;
    const task = first?.payload?.$case === "task" ? first.payload.value : undefined;
    if (!task) throw new Error("the stream did not start with the task");
    await gated.reached;

    const canceled = await client.cancelTask({ id: task.id } as never);
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest: StreamResponse[] = [];
    for await (const item of stream) rest.push(item);
    expect(rest.map(kindOf).at(-1)).toBe(`status:${TaskState.TASK_STATE_CANCELED}`);

    gated.open();
    await settle();
    const events = await storedEvents(gated.app.name, task.contextId);
    expect(events.at(-1)).toMatchObject({ author: "gatekeeper", errorCode: "TURN_CANCELED" });
    // The tool's own answer never got in: the call's only response is the store's, written with the cancel.
    const responses = events.flatMap((e) =>
      (e.content?.parts ?? []).flatMap((p) => p.functionResponse ?? []),
    );
    expect(responses).toEqual([
      { id: "call-gate", name: "wait_gate", response: { error: unansweredMessage("wait_gate") } },
    ]);
    expect((await client.getTask({ id: task.id } as never)).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    // The lease was released: the same context runs the next message (the gate is open now).
    const next = asTask(
      await client.sendMessage({ message: userMessage("again", { contextId: task.contextId }) } as never),
    );
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // Cancel is idempotent on a canceled task.
    expect((await client.cancelTask({ id: task.id } as never)).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
  });

  it("answers tasks/get after the turn from another Worker instance, with historyLength applied", async () => {
    const first = a2aWorker({ apps: [demoApp], services });
    const done = asTask(
      await (await v1Client(first.fetchImpl, "demo")).sendMessage({
        message: userMessage("hi there"),
      } as never),
    );
    const other = await v1Client(a2aWorker({ apps: [demoApp], services }).fetchImpl, "demo");

    const read = await other.getTask({ id: done.id } as never);
    expect(read).toEqual(done);
    expect((await other.getTask({ id: done.id, historyLength: 1 } as never)).history).toEqual(
      done.history.slice(-1),
    );
    await expect(other.getTask({ id: `${crypto.randomUUID()}:nope` } as never)).rejects.toThrow(/not found/i);
  });

  it("lets a client that dropped the stream half-way resubscribe on a new connection and get the rest, nothing repeated", async () => {
    const gated = gatedApp(`resub-${crypto.randomUUID().slice(0, 8)}`);
    const first = a2aWorker({ apps: [gated.app], services });
    const client = await v1Client(first.fetchImpl, gated.app.name);
    const seen: StreamResponse[] = [];
    for await (const item of client.sendMessageStream({ message: userMessage("go") } as never)) {
      seen.push(item);
      if (item.payload?.$case === "statusUpdate" && item.payload.value.status?.message) break; // the tool call
    }
    await gated.reached;
    const task = seen[0]?.payload?.$case === "task" ? seen[0].payload.value : undefined;
    if (!task) throw new Error("no task");

    const second = a2aWorker({ apps: [gated.app], services });
    const again = await v1Client(second.fetchImpl, gated.app.name);
    const resubscribed = again.resubscribeTask({ id: task.id } as never);
    const snapshot = (await resubscribed.next()).value;
    gated.open();
    const rest: StreamResponse[] = [];
    for await (const item of resubscribed) rest.push(item);
    await first.settle();

    expect(snapshot?.payload?.$case).toBe("task");
    const current = snapshot?.payload?.$case === "task" ? snapshot.payload.value : undefined;
    const last = seen.at(-1)?.payload;
    expect(current?.status).toEqual(last?.$case === "statusUpdate" ? last.value.status : undefined);
    const partial = (r: StreamResponse) =>
      r.payload?.$case === "statusUpdate" && r.payload.value.status?.message?.metadata?.adk_partial === true;
    expect(rest.filter((r) => partial(r)).length).toBeGreaterThan(0);
    expect(rest.filter((r) => !partial(r)).map(kindOf)).toEqual([
      `status:${TaskState.TASK_STATE_WORKING}`,
      `status:${TaskState.TASK_STATE_WORKING}`,
      "artifactUpdate",
      `status:${TaskState.TASK_STATE_COMPLETED}`,
    ]);
    const stored = await storedUpdates(sessionKey(gated.app.name, task.contextId), task.id);
    // Everything stored reached the client exactly once, over the two connections, in order.
    expect([...seen, ...rest].filter((r) => !partial(r)).map((r) => Codec.toJSON(r))).toEqual(stored);
  });

  it("refuses a second message while the context's task runs with -32004 naming that task, and stores nothing for it", async () => {
    const gated = gatedApp(`busy-${crypto.randomUUID().slice(0, 8)}`);
    const { fetchImpl, settle } = a2aWorker({ apps: [gated.app], services });
    const client = await v1Client(fetchImpl, gated.app.name);
    const stream = client.sendMessageStream({ message: userMessage("go") } as never);
    const first = (await stream.next()).value;
    const task = first?.payload?.$case === "task" ? first.payload.value : undefined;
    if (!task) throw new Error("no task");
    await gated.reached;
    const before = await storedEvents(gated.app.name, task.contextId);

    const refused = client.sendMessage({
      message: userMessage("me too", { contextId: task.contextId }),
    } as never);
    await expect(refused).rejects.toMatchObject({
      message: expect.stringContaining(`busy with task ${task.id}`),
    });
    expect(await storedEvents(gated.app.name, task.contextId)).toEqual(before);

    gated.open();
    for await (const _ of stream) void _;
    await settle();
    expect((await client.getTask({ id: task.id } as never)).status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
  });

  it("pauses on a long-running tool as input-required and resumes the same task with the matching function response", async () => {
    const app = approvalApp(`approve-${crypto.randomUUID().slice(0, 8)}`);
    const { fetchImpl } = a2aWorker({ apps: [app], services });
    const client = await v1Client(fetchImpl, app.name);
    const paused = asTask(await client.sendMessage({ message: userMessage("refund 42") } as never));
    expect(paused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const call = paused.status?.message?.parts.find((p) => p.content?.$case === "data");
    expect(call?.metadata?.adk_type).toBe("function_call");

    const reply = userMessage("", { contextId: paused.contextId, taskId: paused.id });
    reply.parts = [
      {
        content: {
          $case: "data",
          value: { id: "call-approve", name: "ask_approval", response: { approved: true } },
        },
        metadata: { adk_type: "function_response" },
        filename: "",
        mediaType: "",
      },
    ];
    const resumed = asTask(await client.sendMessage({ message: reply } as never));
    expect(resumed.id).toBe(paused.id);
    expect(resumed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(resumed.artifacts[0]?.parts)).toBe("approved, refund issued");
    const events = await storedEvents(app.name, paused.contextId);
    expect(events.find((e) => e.author === "user" && e.content?.parts?.[0]?.functionResponse)).toBeDefined();
  });
});
