import { type Message, Role, type Task, type TaskPushNotificationConfig } from "@a2a-js/sdk";
import {
  Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from "@a2a-js/sdk/client";
import { LegacyJsonRpcTransport } from "@a2a-js/sdk/compat/v0_3/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoWorker, startDemoWorker } from "../../support/demo-worker.js";
import { type PushReceiver, startPushReceiver } from "../../support/push-receiver.js";

const TOKEN = "interop-a2a-push-token";
let worker: DemoWorker;
let receiver: PushReceiver;

beforeAll(async () => {
  receiver = await startPushReceiver();
  // The receiver is on loopback: the push hosts name it, and example.com (a name is a target only when named).
  worker = await startDemoWorker({ API_TOKENS: TOKEN, A2A_PUSH_HOSTS: "*,127.0.0.1,example.com" });
}, 120_000);
afterAll(async () => {
  await worker?.dispose();
  await receiver?.close();
});

const authed: typeof fetch = (input, init) => {
  const request = new Request(input, init);
  request.headers.set("authorization", `Bearer ${TOKEN}`);
  return fetch(request);
};

type Binding = "JSON-RPC 1.0" | "HTTP+JSON 1.0" | "JSON-RPC 0.3";

/** An `@a2a-js/sdk` client of the demo app over one binding and version, built from its card. */
async function clientFor(binding: Binding): Promise<Client> {
  const base = `${worker.origin}/a2a/demo/`;
  const cardResolver = new DefaultAgentCardResolver({ fetchImpl: authed });
  if (binding === "JSON-RPC 0.3") {
    const card = await cardResolver.resolve(base);
    return new Client(
      new LegacyJsonRpcTransport({ endpoint: `${worker.origin}/a2a/demo`, fetchImpl: authed }),
      card,
    );
  }
  const rest = binding === "HTTP+JSON 1.0";
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [
      rest
        ? new RestTransportFactory({ fetchImpl: authed })
        : new JsonRpcTransportFactory({ fetchImpl: authed }),
    ],
    ...(rest ? { preferredTransports: ["HTTP+JSON"] } : {}),
    cardResolver,
  });
  return new ClientFactory(options).createFromUrl(base);
}

const userMessage = (text: string): Message => ({
  messageId: crypto.randomUUID(),
  contextId: "",
  taskId: "",
  role: Role.ROLE_USER,
  parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "" }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const pushConfig = (fields: Partial<TaskPushNotificationConfig>): TaskPushNotificationConfig => ({
  tenant: "",
  id: "",
  taskId: "",
  url: "",
  token: "",
  authentication: undefined,
  ...fields,
});

async function send(client: Client, text: string, push?: TaskPushNotificationConfig): Promise<Task> {
  const configuration = push
    ? { acceptedOutputModes: [], taskPushNotificationConfig: push, returnImmediately: false }
    : undefined;
  const result = await client.sendMessage({
    tenant: "",
    message: userMessage(text),
    configuration,
    metadata: undefined,
  });
  if ("messageId" in result) throw new Error(`Expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}

/** The task a notification carries, whichever version's shape it has, as `{id, state}`. */
function pushedTask(body: unknown, binding: Binding): { id: string; state: string } {
  const task = (binding === "JSON-RPC 0.3" ? body : (body as { task: unknown }).task) as {
    id: string;
    status: { state: string };
  };
  return { id: task.id, state: task.status.state };
}

describe.each<Binding>(["JSON-RPC 1.0", "HTTP+JSON 1.0", "JSON-RPC 0.3"])(
  "A2A push notifications of the demo app under wrangler dev, @a2a-js/sdk over %s",
  (binding) => {
    it("sets, gets, lists and deletes a task's configs, and refuses what it must", async () => {
      const client = await clientFor(binding);
      expect((await client.getAgentCard()).capabilities?.pushNotifications).toBe(true);
      const task = await send(client, "What is the weather in Paris?");
      const url = `${receiver.origin}/crud/${crypto.randomUUID()}`;
      const created = await client.createTaskPushNotificationConfig(
        pushConfig({ taskId: task.id, id: "cfg-1", url, token: "tok-1" }),
      );
      expect(created).toMatchObject({ id: "cfg-1", taskId: task.id, url, token: "tok-1" });
      const unnamed = await client.createTaskPushNotificationConfig(
        pushConfig({
          taskId: task.id,
          url: `${url}/2`,
          authentication: { scheme: "Bearer", credentials: "c2" },
        }),
      );
      expect(unnamed.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(
        await client.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "cfg-1" }),
      ).toMatchObject({
        id: "cfg-1",
        url,
      });
      const listed = await client.listTaskPushNotificationConfig({
        tenant: "",
        taskId: task.id,
        pageSize: 0,
        pageToken: "",
      });
      expect(listed.configs.map((c) => c.id)).toEqual(["cfg-1", unnamed.id]);
      expect(listed.configs[1]?.authentication).toMatchObject({ scheme: "Bearer", credentials: "c2" });
      await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "cfg-1" });
      await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "cfg-1" });
      const left = await client.listTaskPushNotificationConfig({
        tenant: "",
        taskId: task.id,
        pageSize: 0,
        pageToken: "",
      });
      expect(left.configs.map((c) => c.id)).toEqual([unnamed.id]);
      await expect(
        client.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "cfg-1" }),
      ).rejects.toThrow();

      for (const refused of [
        "ftp://example.com/hook",
        "http://10.0.0.1/hook",
        "http://localhost:9/hook",
        "not a url",
      ])
        await expect(
          client.createTaskPushNotificationConfig(pushConfig({ taskId: task.id, url: refused })),
          refused,
        ).rejects.toThrow(/refused|Invalid/i);
      const unknown = `${crypto.randomUUID()}:${crypto.randomUUID()}`;
      await expect(
        client.createTaskPushNotificationConfig(
          pushConfig({ taskId: unknown, url: "https://example.com/hook" }),
        ),
      ).rejects.toThrow(/not found/i);
    }, 60_000);

    it("POSTs the task to the config given with the message, with its token and credentials, until it completes", async () => {
      const client = await clientFor(binding);
      const id = crypto.randomUUID();
      const path = `/hook/${id}`;
      const task = await send(
        client,
        "What is the weather in Paris?",
        pushConfig({
          url: `${receiver.origin}${path}`,
          token: `tok-${id}`,
          authentication: { scheme: "Bearer", credentials: `cred-${id}` },
        }),
      );
      const completed = binding === "JSON-RPC 0.3" ? "completed" : "TASK_STATE_COMPLETED";
      const pushes = await receiver.waitFor(path, (all) =>
        all.some((p) => pushedTask(p.body, binding).state === completed),
      );
      for (const push of pushes) {
        expect(pushedTask(push.body, binding).id).toBe(task.id);
        expect(push.headers["x-a2a-notification-token"]).toBe(`tok-${id}`);
        expect(push.headers.authorization).toBe(`Bearer cred-${id}`);
        expect(push.headers["content-type"]).toBe(
          binding === "JSON-RPC 0.3" ? "application/json" : "application/a2a+json",
        );
      }
      if (binding === "JSON-RPC 0.3")
        expect(pushes.at(-1)?.body).toMatchObject({ kind: "task", id: task.id });
      // Each delivery is the task as it stood: no state comes after the terminal one.
      expect(pushedTask(pushes.at(-1)?.body, binding).state).toBe(completed);
      const configs = await client.listTaskPushNotificationConfig({
        tenant: "",
        taskId: task.id,
        pageSize: 0,
        pageToken: "",
      });
      expect(configs.configs.map((c) => c.url)).toEqual([`${receiver.origin}${path}`]);
    }, 60_000);
  },
);
