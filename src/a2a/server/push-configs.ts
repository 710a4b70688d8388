import type {
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import {
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotFoundError,
} from "@a2a-js/sdk/errors";
import { ID_LIMITS } from "../../core/limits.js";
import { MAX_PUSH_CONFIGS_PER_TASK, type PushConfig, type TaskKey } from "../../core/task-store.js";
import { assertA2aId, taskNotFound } from "./a2a-errors.js";
import { type PushPolicy, pushUrlProblem } from "./push-policy.js";
import type { A2aServerDeps } from "./server-deps.js";
import { taskKeyOf } from "./task-key.js";

/** Longest token and credentials accepted: both are sent as header values on every delivery. */
const MAX_SECRET_LENGTH = 4096;
/** An HTTP authentication scheme is a token (RFC 9110 §11.1). */
const SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** Header values: visible ASCII and spaces, nothing that could end the header. */
const HEADER_VALUE = /^[\x20-\x7e]*$/;

/** The server's push policy; `-32003` when this server does not send push notifications. */
export function pushPolicyOf(deps: A2aServerDeps): PushPolicy {
  if (!deps.push) throw new PushNotificationNotSupportedError("This agent does not send push notifications.");
  return deps.push;
}

const invalid = (what: string) => new RequestMalformedError(`Invalid params: ${what}.`);

/**
 * A client's config as stored: checked against the push policy (`-32602` naming the problem), given a UUID
 * when it has no id, and marked with the A2A version it came over (its deliveries take that shape).
 */
export function checkedPushConfig(
  deps: A2aServerDeps,
  params: TaskPushNotificationConfig,
  version: string,
): PushConfig {
  const policy = pushPolicyOf(deps);
  const problem = pushUrlProblem(params.url, policy);
  if (problem !== null) throw invalid(`the push notification url is refused: ${problem}`);
  const id = params.id || deps.services.ids.uuid();
  assertA2aId(ID_LIMITS.pushConfigId, id, "the push config id");
  if (params.token.length > MAX_SECRET_LENGTH || !HEADER_VALUE.test(params.token))
    throw invalid(`the token must be at most ${MAX_SECRET_LENGTH} visible ASCII characters`);
  const auth = params.authentication;
  if (auth && !SCHEME.test(auth.scheme))
    throw invalid("authentication.scheme must be an HTTP authentication scheme (Bearer, Basic, …)");
  if (auth && (auth.credentials.length > MAX_SECRET_LENGTH || !HEADER_VALUE.test(auth.credentials)))
    throw invalid(`authentication.credentials must be at most ${MAX_SECRET_LENGTH} visible ASCII characters`);
  return {
    id,
    url: params.url,
    token: params.token,
    authentication: auth ? { scheme: auth.scheme, credentials: auth.credentials } : null,
    version: version === "0.3" ? "0.3" : "1.0",
  };
}

/** Stores a checked config with its task; `-32001` when the task does not exist. */
export async function savePushConfig(
  deps: A2aServerDeps,
  key: TaskKey,
  config: PushConfig,
  tenant = "",
): Promise<TaskPushNotificationConfig> {
  const saved = await deps.taskStore.savePushConfig(key, config);
  if (saved === "missing") throw taskNotFound(key.taskId);
  if (saved === "full")
    throw invalid(`task ${key.taskId} already has ${MAX_PUSH_CONFIGS_PER_TASK} push notification configs`);
  return wireConfig(key.taskId, config, tenant);
}

/** `CreateTaskPushNotificationConfig` / `tasks/pushNotificationConfig/set`. */
export async function createPushConfig(
  deps: A2aServerDeps,
  params: TaskPushNotificationConfig,
  version: string,
): Promise<TaskPushNotificationConfig> {
  const config = checkedPushConfig(deps, params, version);
  return savePushConfig(deps, taskKeyOf(deps, params.taskId), config, params.tenant);
}

/**
 * `GetTaskPushNotificationConfig`: `-32001` for an unknown task or config (A2A 1.0 §3.1.8). An empty id
 * (0.3's `tasks/pushNotificationConfig/get` without `pushNotificationConfigId`) reads the first config.
 */
export async function getPushConfig(
  deps: A2aServerDeps,
  params: GetTaskPushNotificationConfigRequest,
): Promise<TaskPushNotificationConfig> {
  const configs = await configsOf(deps, params.taskId);
  const config = params.id ? configs.find((c) => c.id === params.id) : configs[0];
  if (!config)
    throw new TaskNotFoundError(
      `Push notification config ${params.id || "(any)"} not found for task ${params.taskId}.`,
    );
  return wireConfig(params.taskId, config, params.tenant);
}

/** `ListTaskPushNotificationConfigs`: every config of the task on one page (there are at most ten). */
export async function listPushConfigs(
  deps: A2aServerDeps,
  params: ListTaskPushNotificationConfigsRequest,
): Promise<ListTaskPushNotificationConfigsResponse> {
  const configs = await configsOf(deps, params.taskId);
  return { configs: configs.map((c) => wireConfig(params.taskId, c, params.tenant)), nextPageToken: "" };
}

/** `DeleteTaskPushNotificationConfig`: idempotent for the config, `-32001` for an unknown task. */
export async function deletePushConfig(
  deps: A2aServerDeps,
  params: DeleteTaskPushNotificationConfigRequest,
): Promise<void> {
  pushPolicyOf(deps);
  if (!(await deps.taskStore.deletePushConfig(taskKeyOf(deps, params.taskId), params.id)))
    throw taskNotFound(params.taskId);
}

async function configsOf(deps: A2aServerDeps, taskId: string): Promise<PushConfig[]> {
  pushPolicyOf(deps);
  const configs = await deps.taskStore.pushConfigs(taskKeyOf(deps, taskId));
  if (!configs) throw taskNotFound(taskId);
  return configs;
}

const wireConfig = (taskId: string, config: PushConfig, tenant = ""): TaskPushNotificationConfig => ({
  tenant,
  id: config.id,
  taskId,
  url: config.url,
  token: config.token,
  authentication: config.authentication ?? undefined,
});
