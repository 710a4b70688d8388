import { Message, StreamResponse, Task, TaskState } from "@a2a-js/sdk";
import {
  Client,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  withA2AExtensions,
} from "@a2a-js/sdk/client";
import {
  type A2aMessage,
  type A2aStreamResponse,
  A2aStreamResponseSchema,
  type A2aTask,
  A2aTaskSchema,
} from "../protocol/a2a-objects.js";
import type { AgentCardJson } from "../protocol/agent-card.js";
import { JSONRPC } from "../protocol/agent-card.js";
import type { ChosenInterface } from "./choose-interface.js";
import { type FetchProbe, guardedFetch } from "./guarded-fetch.js";
import { RemoteCallError } from "./remote-call-error.js";

export interface CallOptions {
  fetch: typeof fetch;
  headers: Readonly<Record<string, string>>;
  /** A2A extensions to request (`A2A-Extensions`, `X-A2A-Extensions` on 0.3). */
  extensions: readonly string[];
  streaming: boolean;
  signal: AbortSignal;
  probe: FetchProbe;
}

const legacyCompat = { enabled: true } as const;

/**
 * Sends one message with `@a2a-js/sdk` (its 1.0 JSON-RPC or HTTP+JSON transport, or the 0.3 compat
 * transport when the interface is 0.3) over Baton's `fetch`, and yields each reply validated in the 1.0
 * ProtoJSON shape. Streams when asked and the card allows it; otherwise one blocking reply.
 */
export async function* sendMessage(
  card: AgentCardJson,
  chosen: ChosenInterface,
  message: A2aMessage,
  options: CallOptions,
): AsyncGenerator<A2aStreamResponse> {
  const client = await clientFor(card, chosen, options);
  const request = {
    tenant: "",
    message: Message.fromJSON(message),
    configuration: undefined,
    metadata: undefined,
  };
  const requestOptions = { signal: options.signal, serviceParameters: serviceParameters(options) };
  if (!options.streaming) {
    const result = await client.sendMessage(request, requestOptions);
    yield validated(
      "messageId" in result ? { message: Message.toJSON(result) } : { task: Task.toJSON(result) },
    );
    return;
  }
  for await (const item of client.sendMessageStream(request, requestOptions)) {
    yield validated(StreamResponse.toJSON(item));
  }
}

/**
 * Asks the remote agent to cancel `taskId` (`tasks/cancel`): what a stopped turn does for the remote task
 * it was waiting on (decision 028). `options.signal` bounds it; the caller's own turn signal is aborted.
 */
export async function cancelTask(
  card: AgentCardJson,
  chosen: ChosenInterface,
  taskId: string,
  options: Omit<CallOptions, "streaming">,
): Promise<void> {
  const client = await clientFor(card, chosen, options);
  await client.cancelTask(
    { tenant: "", id: taskId, metadata: undefined },
    { signal: options.signal, serviceParameters: serviceParameters(options) },
  );
}

/** The most tasks one `ListTasks` page holds (A2A 1.0), and the most pages `listTasks` reads. */
const LIST_PAGE_SIZE = 100;
const MAX_LIST_PAGES = 5;

/**
 * The tasks of `contextId` (every task the caller may list, for `""`), page after page up to
 * `MAX_LIST_PAGES` (A2A 1.0 `ListTasks`, newest first on the servers Baton knows, with full history and no
 * artifacts; 0.3 has no such method). No time filter: a task with no status timestamp would not pass one
 * in `@a2a-js/sdk`'s store.
 */
export async function* listTasks(
  card: AgentCardJson,
  chosen: ChosenInterface,
  contextId: string,
  options: Omit<CallOptions, "streaming">,
): AsyncGenerator<A2aTask> {
  const client = await clientFor(card, chosen, options);
  let pageToken = "";
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const listed = await client.listTasks(
      {
        tenant: "",
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: LIST_PAGE_SIZE,
        pageToken,
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      },
      { signal: options.signal, serviceParameters: serviceParameters(options) },
    );
    for (const task of listed.tasks) {
      const parsed = A2aTaskSchema.safeParse(Task.toJSON(task));
      if (!parsed.success)
        throw new RemoteCallError("A2A_PROTOCOL_ERROR", "ListTasks answered an invalid task");
      yield parsed.data;
    }
    if (!listed.nextPageToken) return;
    pageToken = listed.nextPageToken;
  }
}

/** The SDK client for the chosen interface, over Baton's guarded `fetch`. */
async function clientFor(
  card: AgentCardJson,
  chosen: ChosenInterface,
  options: Pick<CallOptions, "fetch" | "headers" | "probe">,
): Promise<Client> {
  const fetchImpl = guardedFetch(options.fetch, options.headers, options.probe);
  const coreCard = new DefaultAgentCardResolver({ legacyCompat }).normalizeAgentCard(card);
  const factory =
    chosen.binding === JSONRPC
      ? new JsonRpcTransportFactory({ fetchImpl, legacyCompat })
      : new RestTransportFactory({ fetchImpl, legacyCompat });
  return new Client(await factory.create(chosen.url, coreCard), coreCard, { polling: false });
}

function serviceParameters(options: Pick<CallOptions, "extensions">): Record<string, string> {
  const parameters: Record<string, string> = {};
  if (options.extensions.length > 0) withA2AExtensions(...options.extensions)(parameters);
  return parameters;
}

function validated(json: unknown): A2aStreamResponse {
  const parsed = A2aStreamResponseSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new RemoteCallError(
    "A2A_PROTOCOL_ERROR",
    `A2A request failed: the reply is not an A2A task, message or update (${parsed.error.issues[0]?.message ?? "invalid"})`,
  );
}
