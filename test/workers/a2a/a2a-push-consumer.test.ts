import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Task } from "@a2a-js/sdk";
import { describe, expect, inject, it } from "vitest";
import { PUSH_ATTEMPTS } from "../../../src/a2a/server/push-consumer.js";
import { DurableObjectTaskStore } from "../../../src/a2a/tasks/do-task-store.js";
import { a2aContextUserId } from "../../../src/core/reserved-users.js";
import type { PushDelivery } from "../../../src/core/task-store.js";
import {
  type BatonWorkerEnv,
  createWorker,
  DEFAULT_PUSH_QUEUE,
} from "../../../src/handlers/create-worker.js";
import type { ReceivedPush } from "../../support/push-receiver.js";
import { a2aWorker, userMessage, v1Client } from "../support/a2a.js";
import { scriptedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";
import { noteRetryDelays } from "../support/webhooks.js";

const receiverUrl = inject("pushReceiverUrl");
const services = { sleep: noSleep, log: () => undefined };

/** Hands `bodies` to the Worker's queue handler as one batch of the push queue; returns acks and retries. */
async function consume(bodies: readonly unknown[], attempts = 1) {
  const worker = createWorker({ apps: [], services });
  const batch = createMessageBatch(
    DEFAULT_PUSH_QUEUE,
    bodies.map((body, i) => ({ id: `push-${i}`, timestamp: new Date(), attempts, body })),
  );
  const delays: (number | undefined)[] = [];
  const observed = noteRetryDelays(batch, (_id, delaySeconds) => delays.push(delaySeconds));
  const ctx = createExecutionContext();
  const workerEnv: BatonWorkerEnv = { ...env };
  await worker.queue(observed, workerEnv, ctx);
  const result = await getQueueResult(batch, ctx);
  return { acked: result.explicitAcks.length, retried: result.retryMessages.length, delays };
}

const pushesAt = async (path: string): Promise<ReceivedPush[]> =>
  (await fetch(`${receiverUrl}${path}`)).json();

describe("the A2A_PUSH queue's consumer", () => {
  it("sends the newest write, skips overtaken and orphaned messages, retries with doubling waits, and gives up", async () => {
    const app = scriptedApp(`pushc-${crypto.randomUUID().slice(0, 8)}`, [{ text: "done" }]);
    const { fetchImpl } = a2aWorker({ apps: [app], services });
    const client = await v1Client(fetchImpl, app.name);
    const task = (await client.sendMessage({
      tenant: "",
      message: userMessage("go"),
      configuration: undefined,
      metadata: undefined,
    })) as Task;
    const id = crypto.randomUUID();
    const path = `/consumer/${id}/fail-1`;
    const config = {
      tenant: "",
      id: "c",
      taskId: task.id,
      url: `${receiverUrl}${path}`,
      token: "",
      authentication: undefined,
    };
    await client.createTaskPushNotificationConfig(config);
    const contextId = task.contextId;
    const key = {
      appName: app.name,
      userId: a2aContextUserId(contextId),
      sessionId: contextId,
      taskId: task.id,
    };
    const seq = (await new DurableObjectTaskStore(env).getTask(key))?.seq ?? Number.NaN;
    expect(seq).toBeGreaterThan(1);
    const delivery = (fields: Partial<PushDelivery>): PushDelivery => ({
      ...key,
      configId: "c",
      seq,
      ...fields,
    });

    // Overtaken (an older write), orphaned (no such config, no such task) and malformed messages: acked unsent.
    const skipped = await consume([
      delivery({ seq: 1 }),
      delivery({ configId: "gone" }),
      delivery({ taskId: `${crypto.randomUUID()}:${contextId}` }),
      { not: "a delivery" },
    ]);
    expect(skipped).toMatchObject({ acked: 4, retried: 0 });
    expect(await pushesAt(path)).toEqual([]);

    // The receiver answers 503 once: retried after 2 s, then (its second attempt) delivered.
    expect(await consume([delivery({})])).toMatchObject({ acked: 0, retried: 1, delays: [2] });
    expect(await consume([delivery({})], 2)).toMatchObject({ acked: 1, retried: 0 });
    const pushes = await pushesAt(path);
    expect(pushes.map((p) => p.status)).toEqual([503, 200]);
    expect(pushes[1]?.body).toMatchObject({ task: { id: task.id } });

    // A receiver that stays down: the last attempt is acked (dropped and logged), not retried again.
    const down = `/consumer/${id}/fail-99`;
    await client.createTaskPushNotificationConfig({ ...config, id: "down", url: `${receiverUrl}${down}` });
    expect(await consume([delivery({ configId: "down" })], PUSH_ATTEMPTS - 1)).toMatchObject({
      retried: 1,
      delays: [2 ** (PUSH_ATTEMPTS - 1)],
    });
    expect(await consume([delivery({ configId: "down" })], PUSH_ATTEMPTS)).toMatchObject({
      acked: 1,
      retried: 0,
    });
  }, 60_000);
});
