import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { type Message, Role, type StreamResponse, type Task } from "@a2a-js/sdk";
import {
  Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from "@a2a-js/sdk/client";
import { LegacyJsonRpcTransport } from "@a2a-js/sdk/compat/v0_3/client";
import { onTestFinished } from "vitest";
import { z } from "zod";
import type { SessionKey } from "../../../src/core/session.js";
import {
  type BatonWorkerEnv,
  createWorker,
  type WorkerOptions,
} from "../../../src/handlers/create-worker.js";
import { openaiCompatible } from "../../../src/models/openai-compatible-provider.js";
import { sessionObjectName } from "../../../src/storage/object-names.js";
import { TEST_TOKEN } from "./http.js";

export const BASE_URL = "http://baton.test";

/**
 * A `createWorker` Worker reached through `fetch`, as an A2A client reaches it: each request gets its own
 * execution context, whose `waitUntil` work (a turn that outlives its stream) is awaited by `settle()`,
 * and in any case when the test that built the Worker finishes, so none of it runs on into the next test.
 */
export function a2aWorker(options: WorkerOptions, vars: Record<string, string | undefined> = {}) {
  const worker = createWorker({ models: [openaiCompatible()], ...options });
  const workerEnv: BatonWorkerEnv = { ...env, API_TOKENS: TEST_TOKEN, ...vars };
  const background: Promise<void>[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (!request.headers.has("authorization") && workerEnv.API_TOKENS)
      request.headers.set("authorization", `Bearer ${TEST_TOKEN}`);
    const ctx = createExecutionContext();
    // SAFETY: an incoming request differs only in its `cf` object, which no handler reads.
    const response = await worker.fetch(
      request as Request<unknown, IncomingRequestCfProperties>,
      workerEnv,
      ctx,
    );
    background.push(waitOnExecutionContext(ctx));
    return response;
  };
  const settle = () => Promise.all(background);
  onTestFinished(async () => {
    await settle();
  });
  return { fetchImpl, settle };
}

/** An `@a2a-js/sdk` client speaking A2A 1.0, built from the app's card like any client. */
export async function v1Client(fetchImpl: typeof fetch, app: string): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${BASE_URL}/a2a/${app}/`);
}

/** An `@a2a-js/sdk` client speaking A2A 1.0 over HTTP+JSON (REST), chosen from the app's card. */
export async function restClient(fetchImpl: typeof fetch, app: string): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new RestTransportFactory({ fetchImpl })],
      preferredTransports: ["HTTP+JSON"],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${BASE_URL}/a2a/${app}/`);
}

/** An `@a2a-js/sdk` client on its v0.3 JSON-RPC transport (`message/send`, `tasks/get`, … on the wire). */
export async function v03Client(fetchImpl: typeof fetch, app: string): Promise<Client> {
  const card = await new DefaultAgentCardResolver({ fetchImpl }).resolve(`${BASE_URL}/a2a/${app}/`);
  return new Client(new LegacyJsonRpcTransport({ endpoint: `${BASE_URL}/a2a/${app}`, fetchImpl }), card);
}

/** A user message with one text part (and a context or task to continue). */
export function userMessage(text: string, ids: { contextId?: string; taskId?: string } = {}): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "" }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The task a blocking send answered (a test fails if it answered a bare message). */
export function asTask(result: Message | Task): Task {
  if ("messageId" in result) throw new Error(`Expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}

/** The text parts of a message or artifact, joined. */
export const textOf = (
  parts: readonly { content?: { $case: string; value: unknown } | undefined }[] = [],
): string => parts.map((p) => (p.content?.$case === "text" ? String(p.content.value) : "")).join("");

/** A compact view of a stream item: its kind and task state. */
export function kindOf(item: StreamResponse | Message | Task): string {
  if ("payload" in item && item.payload) {
    const { payload } = item;
    if (payload.$case === "statusUpdate") return `status:${payload.value.status?.state}`;
    if (payload.$case === "task") return `task:${payload.value.status?.state}`;
    return payload.$case;
  }
  if ("messageId" in item) return "message";
  if ("id" in item) return `task:${item.status?.state}`;
  return "other";
}

/** A promise and the function that resolves it. */
export function deferred<T = void>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const UpdateRowSchema = z.object({ seq: z.number(), json: z.string() });

/** The updates stored for a task, in order, read from its session's object. */
export async function storedUpdates(key: SessionKey, taskId: string): Promise<unknown[]> {
  const stub = env.SESSIONS.getByName(sessionObjectName(key));
  return runInDurableObject(stub, (_, state) =>
    state.storage.sql
      .exec("SELECT seq, json FROM task_updates WHERE task_id = ? ORDER BY seq", taskId)
      .toArray()
      .map((row) => JSON.parse(UpdateRowSchema.parse(row).json)),
  );
}
