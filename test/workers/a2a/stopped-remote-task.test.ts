import { type ListTasksRequest, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { RemoteA2aAgent } from "../../../src/a2a/client/remote-a2a-agent.js";
import type { Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import { a2aWorker, BASE_URL, v1Client } from "../support/a2a.js";
import { gatedApp } from "../support/a2a-apps.js";
import { noSleep, runBody } from "../support/http.js";

const services = { sleep: noSleep, log: () => undefined };

/**
 * A front app whose one agent is a remote A2A agent (Baton's own A2A 1.0 server, in-process) that calls
 * `wait_gate` and waits there; the front's turn is stopped while the remote task waits at the gate.
 */
async function stopWhileRemoteWaits(streaming: boolean) {
  const id = crypto.randomUUID().slice(0, 8);
  const gated = gatedApp(`gated-${id}`);
  let fetchImpl: typeof fetch | undefined;
  const remote = new RemoteA2aAgent({
    name: "specialist",
    agentCard: `${BASE_URL}/a2a/${gated.app.name}/.well-known/agent-card.json`,
    streaming,
    fetch: (input, init) => {
      if (!fetchImpl) throw new Error("the worker is not built yet");
      return fetchImpl(input, init);
    },
  });
  const front = defineApp({ name: `front-${id}`, rootAgent: remote });
  // The remote agent is served in-process by the same Worker: its requests run in the context of the
  // turn that calls them, so the front app's turns run in the request, not in their session's object.
  const worker = a2aWorker({ apps: [gated.app, front], services, runTurnsIn: "request" });
  fetchImpl = worker.fetchImpl;
  const call = (path: string, body: unknown) =>
    worker.fetchImpl(`${BASE_URL}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  await call(`/apps/${front.name}/users/u/sessions`, { sessionId: "s" });

  const running = call("/run", runBody(front.name, "u", "s", "wait for the gate"));
  await gated.reached;
  const canceled = (await (await call(`/apps/${front.name}/users/u/sessions/s/cancel`, {})).json()) as {
    event: Event;
  };
  expect(canceled).toMatchObject({
    canceled: true,
    event: { author: "specialist", errorCode: "TURN_CANCELED" },
  });
  const events = (await (await running).json()) as Event[];
  // What the remote agent streamed before the cancel (nothing, for a blocking call), then the cancel event.
  expect(events.at(-1)).toEqual(canceled.event);
  expect(events.slice(0, -1).every((e) => e.errorCode === undefined)).toBe(true);

  // The remote agent's tasks as a client lists them.
  const client = await v1Client(worker.fetchImpl, gated.app.name);
  const listed = await client.listTasks({
    tenant: "",
    contextId: "",
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageToken: "",
    statusTimestampAfter: undefined,
    pageSize: 10,
  } satisfies ListTasksRequest);
  gated.open();
  return listed.tasks;
}

describe("stopping a turn that waits on a remote A2A agent", () => {
  it("sends the remote agent tasks/cancel for the task the turn was streaming, and ends the turn with its cancel", async () => {
    const tasks = await stopWhileRemoteWaits(true);
    // The remote agent's task was canceled by the stopped turn, not left working.
    expect(tasks.map((t) => t.status?.state)).toEqual([TaskState.TASK_STATE_CANCELED]);
  });

  it("finds the task of a blocking call, which named none, by its message in ListTasks, and cancels it", async () => {
    const tasks = await stopWhileRemoteWaits(false);
    expect(tasks.map((t) => t.status?.state)).toEqual([TaskState.TASK_STATE_CANCELED]);
    // The one task whose history holds the message the front sent.
    expect(tasks[0]?.history[0]?.parts.map((p) => p.content?.value)).toEqual(["wait for the gate"]);
  });
});
