import { V03PushNotificationSerializer } from "@a2a-js/sdk/compat/v0_3/server";
import { V1PushNotificationSerializer } from "@a2a-js/sdk/server";
import type { PushConfig, TaskPayload } from "../../core/task-store.js";
import { type PushPolicy, pushUrlProblem } from "./push-policy.js";
import { decodeTask } from "./task-json.js";

/** The header A2A names for a config's `token` (A2A 1.0 §6.6; a2a-js sends the same). */
export const PUSH_TOKEN_HEADER = "X-A2A-Notification-Token";

/** How long one delivery waits for the receiver (A2A 1.0 §4.3.3 recommends 10–30 s). */
export const PUSH_TIMEOUT_MS = 10_000;

/** What a delivery needs from its host: `fetch`, the push policy (checked again at send time) and a log. */
export interface PushSendDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  policy: PushPolicy;
  log(message: string): void;
  timeoutMs?: number;
}

/**
 * `delivered`: the receiver answered 2xx. `retry`: worth another attempt (network error, timeout, 408, 429,
 * 5xx). `refused`: not worth one (another status, or a URL the policy no longer allows).
 */
export type PushOutcome = "delivered" | "retry" | "refused";

/**
 * The POST a delivery makes: the task as it stands, in the shape of the version its config was set over
 * (1.0: a `StreamResponse` holding the task, `application/a2a+json`; 0.3: the bare 0.3 `Task`), with the
 * config's token in `X-A2A-Notification-Token` and its authentication as `Authorization`.
 */
export function pushRequest(config: PushConfig, snapshot: TaskPayload): RequestInit {
  const serializer =
    config.version === "0.3" ? new V03PushNotificationSerializer() : new V1PushNotificationSerializer();
  const { body, contentType } = serializer.serialize({
    payload: { $case: "task", value: decodeTask(snapshot) },
  });
  const headers: Record<string, string> = { "content-type": contentType };
  if (config.token) headers[PUSH_TOKEN_HEADER] = config.token;
  const auth = config.authentication;
  if (auth) headers.authorization = auth.credentials ? `${auth.scheme} ${auth.credentials}` : auth.scheme;
  return { method: "POST", headers, body, redirect: "manual" };
}

const retryable = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * One attempt to deliver the task to the config's URL. Never throws: the outcome says whether another
 * attempt is worth making. Redirects are not followed (a redirect could lead anywhere the policy refuses).
 */
export async function sendPush(
  config: PushConfig,
  snapshot: TaskPayload,
  deps: PushSendDeps,
): Promise<PushOutcome> {
  const problem = pushUrlProblem(config.url, deps.policy);
  if (problem !== null) {
    deps.log(`Push config ${config.id}: not delivered, ${problem}.`);
    return "refused";
  }
  const signal = AbortSignal.timeout(deps.timeoutMs ?? PUSH_TIMEOUT_MS);
  try {
    const response = await deps.fetch(config.url, { ...pushRequest(config, snapshot), signal });
    await response.body?.cancel();
    if (response.ok) return "delivered";
    deps.log(`Push config ${config.id}: ${config.url} answered HTTP ${response.status}.`);
    return retryable(response.status) ? "retry" : "refused";
  } catch (error) {
    deps.log(`Push config ${config.id}: ${config.url} failed: ${String(error)}.`);
    return "retry";
  }
}
