import { RequestMalformedError } from "@a2a-js/sdk/errors";
import * as z from "zod";

/** The JSON-RPC methods of A2A 1.0 (A2A 1.0 §9.4): a call without `A2A-Version` naming one is 1.0. */
export const V1_METHODS: ReadonlySet<string> = new Set([
  "SendMessage",
  "SendStreamingMessage",
  "GetTask",
  "ListTasks",
  "CancelTask",
  "SubscribeToTask",
  "CreateTaskPushNotificationConfig",
  "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs",
  "DeleteTaskPushNotificationConfig",
  "GetExtendedAgentCard",
]);

/** Methods answered as a stream: their errors, too, are sent as an SSE frame. */
export const STREAMING_METHODS: ReadonlySet<string> = new Set([
  "SendStreamingMessage",
  "SubscribeToTask",
  "message/stream",
  "tasks/resubscribe",
]);

const TASK_STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
] as const;

const TaskId = z.string().min(1);
/** ProtoJSON: a field given as `null` is a field left out. */
const HistoryLength = z.number().int().min(0).nullish();
const Metadata = z.record(z.string(), z.unknown()).nullish();

const ListTasksParams = z.looseObject({
  contextId: z.string().nullish(),
  status: z
    .union([
      z.enum(TASK_STATES),
      z
        .number()
        .int()
        .min(0)
        .max(TASK_STATES.length - 1),
    ])
    .nullish(),
  pageSize: z.number().int().min(1).max(100).nullish(),
  pageToken: z.string().nullish(),
  historyLength: HistoryLength,
  statusTimestampAfter: z.iso.datetime({ offset: true }).nullish(),
  includeArtifacts: z.boolean().nullish(),
});

const MessageParams = z.looseObject({
  message: z.looseObject({
    messageId: z.string().min(1),
    role: z.union([z.enum(["ROLE_USER", "ROLE_AGENT"]), z.number().int().min(1).max(2)]),
    parts: z.array(z.record(z.string(), z.unknown())).min(1),
  }),
});

const Authentication = z.looseObject({ scheme: z.string().min(1), credentials: z.string().nullish() });

/** A2A 1.0's flat `TaskPushNotificationConfig`. */
const PushConfigParams = z.looseObject({
  taskId: TaskId,
  url: z.string().min(1),
  id: z.string().nullish(),
  token: z.string().nullish(),
  authentication: Authentication.nullish(),
});

/** A config of a task, named by both ids. */
const PushConfigRef = z.looseObject({ taskId: TaskId, id: z.string().min(1) });

/**
 * Each method's parameters as A2A defines them; the SDK's decoders would read a wrong one as a default (an
 * unknown state as "any", a negative page size as unset), so they are checked here first. A `Map`: a
 * method named `toString` or `__proto__` finds nothing here (decision 048), not `Object.prototype`'s.
 */
export const PARAMS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>(
  Object.entries({
    SendMessage: MessageParams,
    SendStreamingMessage: MessageParams,
    GetTask: z.looseObject({ id: TaskId, historyLength: HistoryLength }),
    CancelTask: z.looseObject({ id: TaskId, metadata: Metadata }),
    SubscribeToTask: z.looseObject({ id: TaskId }),
    ListTasks: ListTasksParams,
    CreateTaskPushNotificationConfig: PushConfigParams,
    GetTaskPushNotificationConfig: PushConfigRef,
    DeleteTaskPushNotificationConfig: PushConfigRef,
    ListTaskPushNotificationConfigs: z.looseObject({
      taskId: TaskId,
      pageSize: z.number().int().min(0).nullish(),
      pageToken: z.string().nullish(),
    }),
    "tasks/pushNotificationConfig/set": z.looseObject({
      taskId: TaskId,
      pushNotificationConfig: z.looseObject({ url: z.string().min(1), id: z.string().nullish() }),
    }),
    "tasks/pushNotificationConfig/get": z.looseObject({
      id: TaskId,
      pushNotificationConfigId: z.string().nullish(),
    }),
    "tasks/pushNotificationConfig/list": z.looseObject({ id: TaskId }),
    "tasks/pushNotificationConfig/delete": z.looseObject({
      id: TaskId,
      pushNotificationConfigId: z.string().min(1),
    }),
    "tasks/get": z.looseObject({ id: TaskId, historyLength: HistoryLength, metadata: Metadata }),
    "tasks/cancel": z.looseObject({ id: TaskId, metadata: Metadata }),
    "tasks/resubscribe": z.looseObject({ id: TaskId, metadata: Metadata }),
  }),
);

/** `-32602 Invalid params` naming what is wrong, for a method whose parameters are not as A2A defines. */
export function checkParams(method: string, params: unknown): RequestMalformedError | null {
  const schema = PARAMS.get(method);
  const given = V1_METHODS.has(method) ? withJsonNames(params ?? {}) : (params ?? {});
  const checked = schema?.safeParse(given);
  if (!checked || checked.success) return null;
  return new RequestMalformedError(`Invalid params for ${method}: ${z.prettifyError(checked.error)}`);
}

/**
 * 1.0 params with every proto field name (`task_id`) read as its JSON name (`taskId`): ProtoJSON parsers
 * accept both (the SDK's decoders do, and the kit sends `task_id`), so the checks must too. The checked
 * copy only; the SDK decodes what was sent. Shapes were bounded before (`assertSafeShape`).
 */
function withJsonNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withJsonNames);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).map(([key, field]) => [
    key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()),
    withJsonNames(field),
  ]);
  return Object.fromEntries(entries);
}
