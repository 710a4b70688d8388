import {
  A2A_CONTENT_TYPE,
  A2A_VERSION_HEADER,
  AgentCard,
  formatSSEErrorEvent,
  formatSSEEvent,
  GetTaskRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  type ListTasksResponse,
  SendMessageRequest,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import {
  ContentTypeNotSupportedError,
  RequestMalformedError,
  restStatusFor,
  toRestErrorBody,
} from "@a2a-js/sdk/errors";
import { ServerCallContext, validateVersion } from "@a2a-js/sdk/server";
import { guardJson } from "../../core/json-guard.js";
import { toA2aError } from "./a2a-errors.js";
import { MAX_A2A_BODY_BYTES } from "./json-rpc.js";
import type { BatonA2aRequestHandler } from "./request-handler.js";
import { checkParams } from "./rpc-params.js";
import { sseResponse } from "./sse-stream.js";

/** One call of A2A 1.0's HTTP+JSON binding (§11), as the route read it from the method and path. */
export type RestCall =
  | { op: "send" | "stream" }
  | { op: "get"; id: string }
  | { op: "list" }
  | { op: "cancel" | "subscribe"; id: string }
  | { op: "extendedCard" }
  | { op: "pushCreate" | "pushList"; id: string }
  | { op: "pushGet" | "pushDelete"; id: string; configId: string };

/**
 * Answers one HTTP+JSON call through the same request handler as JSON-RPC: bodies and query parameters are
 * checked as JSON-RPC's params are (`400` with the error's `details` otherwise), results are ProtoJSON,
 * streams are SSE of bare `StreamResponse`s, and errors are `{"error": {code, status, message, details}}`
 * with the status A2A 1.0 §5.4 gives them.
 */
export async function handleRest(
  call: RestCall,
  request: Request,
  handler: BatonA2aRequestHandler,
): Promise<Response> {
  try {
    checkVersion(request, await handler.getAgentCard());
    return await dispatch(call, request, handler);
  } catch (error) {
    return restError(toA2aError(error));
  }
}

async function dispatch(call: RestCall, request: Request, handler: BatonA2aRequestHandler) {
  const query = new URL(request.url).searchParams;
  switch (call.op) {
    case "send": {
      const result = await handler.sendMessage(await sendRequest(request, "SendMessage"));
      return json("messageId" in result ? { message: result } : { task: Task.toJSON(result) });
    }
    case "stream":
      return streamed(handler.sendMessageStream(await sendRequest(request, "SendStreamingMessage")));
    case "get": {
      const params = checked("GetTask", { id: call.id, historyLength: numeric(query.get("historyLength")) });
      return json(Task.toJSON(await handler.getTask(GetTaskRequest.fromJSON(params))));
    }
    case "cancel":
      return json(Task.toJSON(await handler.cancelTask({ tenant: "", id: call.id, metadata: undefined })));
    case "subscribe":
      return streamed(handler.resubscribe({ tenant: "", id: call.id }));
    case "list":
      return json(listed(await handler.listTasks(listRequest(query))));
    case "extendedCard":
      return json(AgentCard.toJSON(await handler.getAuthenticatedExtendedAgentCard()));
    case "pushCreate": {
      const body = await readJson(request);
      const fields = { ...(isObject(body) ? body : {}), taskId: call.id };
      const params = TaskPushNotificationConfig.fromJSON(checked("CreateTaskPushNotificationConfig", fields));
      const context = new ServerCallContext({ requestedVersion: "1.0" });
      const created = await handler.createTaskPushNotificationConfig(params, context);
      return json(TaskPushNotificationConfig.toJSON(created), 201);
    }
    case "pushList": {
      const listed = await handler.listTaskPushNotificationConfigs({
        tenant: "",
        taskId: call.id,
        pageSize: 0,
        pageToken: "",
      });
      return json(ListTaskPushNotificationConfigsResponse.toJSON(listed));
    }
    case "pushGet": {
      const params = { tenant: "", taskId: call.id, id: call.configId };
      return json(TaskPushNotificationConfig.toJSON(await handler.getTaskPushNotificationConfig(params)));
    }
    case "pushDelete":
      await handler.deleteTaskPushNotificationConfig({ tenant: "", taskId: call.id, id: call.configId });
      return new Response(null, { status: 204 });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** HTTP+JSON is 1.0 only: no header means 1.0; any other version is `VersionNotSupportedError`. */
function checkVersion(request: Request, card: AgentCard): void {
  const header = request.headers.get(A2A_VERSION_HEADER)?.trim();
  const version = header ? (/^(\d+\.\d+)\.\d+$/.exec(header)?.[1] ?? header) : "1.0";
  validateVersion(version, card, "HTTP+JSON");
}

async function sendRequest(request: Request, method: string): Promise<SendMessageRequest> {
  return SendMessageRequest.fromJSON(checked(method, await readJson(request)));
}

/**
 * A JSON body (A2A's or plain JSON's media type), through the one body guard (core/json-guard.ts): at most
 * `MAX_A2A_BODY_BYTES`, valid JSON, no deeper than 64 levels and no prototype keys, as the JSON-RPC binding
 * checks it; a refusal is `RequestMalformedError` (400 `INVALID_ARGUMENT`) naming what is wrong.
 */
async function readJson(request: Request): Promise<unknown> {
  const contentType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (contentType && contentType !== "application/json" && contentType !== A2A_CONTENT_TYPE)
    throw new ContentTypeNotSupportedError(
      `Unsupported Content-Type "${contentType}"; send application/json.`,
    );
  const guarded = guardJson(await request.text(), { maxBytes: MAX_A2A_BODY_BYTES });
  if (!guarded.ok) throw new RequestMalformedError(guarded.refusal.message);
  return guarded.value;
}

/** `GET /tasks` query parameters as `ListTasks` params: numbers and flags read from their text. */
function listRequest(query: URLSearchParams): ListTasksRequest {
  const fields = {
    contextId: query.get("contextId") ?? undefined,
    status: query.get("status") ?? undefined,
    pageSize: numeric(query.get("pageSize")),
    pageToken: query.get("pageToken") ?? undefined,
    historyLength: numeric(query.get("historyLength")),
    statusTimestampAfter: query.get("statusTimestampAfter") ?? undefined,
    includeArtifacts: flag(query.get("includeArtifacts")),
  };
  return ListTasksRequest.fromJSON(checked("ListTasks", fields));
}

/** The params, or `RequestMalformedError` (400 `INVALID_ARGUMENT`) naming what is wrong. */
function checked(method: string, params: unknown): unknown {
  const invalid = checkParams(method, params);
  if (invalid) throw invalid;
  return params;
}

/** A query value as a number when it is an integer's text; otherwise as given, for the check to refuse. */
const numeric = (value: string | null): number | string | undefined =>
  value === null ? undefined : /^-?\d+$/.test(value) ? Number(value) : value;

const flag = (value: string | null): boolean | string | undefined =>
  value === null ? undefined : value === "true" ? true : value === "false" ? false : value;

/** `ListTasksResponse` as ProtoJSON with every field present (`nextPageToken: ""` on the last page). */
function listed(response: ListTasksResponse) {
  return {
    tasks: response.tasks.map((task) => Task.toJSON(task)),
    nextPageToken: response.nextPageToken,
    pageSize: response.pageSize,
    totalSize: response.totalSize,
  };
}

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": A2A_CONTENT_TYPE } });

function restError(error: unknown): Response {
  const status = restStatusFor(error);
  return json(toRestErrorBody(error, status), status);
}

/**
 * A stream as SSE, `data: <StreamResponse>` per event. An error before the first event is a plain error
 * answer (no stream was opened, as a2a-js's REST server does); one after it is a last `event: error`.
 */
function streamed(events: AsyncGenerator<StreamResponse>): Promise<Response> {
  return sseResponse(events, {
    frame: (item) => formatSSEEvent(StreamResponse.toJSON(item)),
    failedBeforeFirst: (error) => restError(toA2aError(error)),
    failedAfterFirst: (error) => {
      const failure = toA2aError(error);
      return formatSSEErrorEvent(toRestErrorBody(failure, restStatusFor(failure)));
    },
  });
}
