import { textOf } from "../core/content.js";
import type { Event } from "../core/event.js";
import type { OnResult } from "../core/webhook.js";
import { signStandardWebhook } from "./standard-webhooks.js";
import type { TurnRecord } from "./turn-record.js";

export interface ResultDeps {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  clock: { now(): number };
  secret(name: string): string | undefined;
  log(message: string): void;
}

/** Attempts per result, and the first wait between them (doubling): about 7 s in all, inside the consumer. */
export const RESULT_ATTEMPTS = 4;
export const RESULT_FIRST_WAIT_MS = 1000;

/** The body POSTed to `onResult.url`. */
export function resultBody(record: TurnRecord, final: Event | undefined) {
  return {
    type: "turn.done",
    turnId: record.turnId,
    appName: record.appName,
    userId: record.userId,
    sessionId: record.sessionId,
    invocationId: record.invocationId,
    status: "done",
    text: textOf(final?.content),
    content: final?.content ?? null,
    author: final?.author ?? null,
  };
}

const retryable = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * POSTs the final response, signed with Standard Webhooks (`webhook-id` is the turn id, the same on every
 * attempt, so the receiver can dedupe). Retries network errors, 408, 429 and 5xx with doubling waits, up to
 * `RESULT_ATTEMPTS`; any other answer ends it. Never throws: the turn is done whatever the receiver says.
 */
export async function deliverResult(
  onResult: OnResult,
  record: TurnRecord,
  final: Event | undefined,
  deps: ResultDeps,
): Promise<"delivered" | "failed"> {
  const secret = deps.secret(onResult.secretName);
  if (!secret) {
    deps.log(`Turn ${record.turnId}: onResult needs the secret ${onResult.secretName}; nothing delivered.`);
    return "failed";
  }
  const body = JSON.stringify(resultBody(record, final));
  for (let attempt = 1; attempt <= RESULT_ATTEMPTS; attempt++) {
    const signed = await signStandardWebhook(secret, record.turnId, deps.clock.now(), body);
    if (!signed) {
      deps.log(
        `Turn ${record.turnId}: the secret ${onResult.secretName} is not a Standard Webhooks key (whsec_<base64>); nothing delivered.`,
      );
      return "failed";
    }
    let problem: string;
    try {
      const response = await deps.fetch(onResult.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...signed },
        body,
      });
      await response.body?.cancel();
      if (response.ok) return "delivered";
      problem = `HTTP ${response.status}`;
      if (!retryable(response.status)) attempt = RESULT_ATTEMPTS;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    deps.log(
      `Turn ${record.turnId}: result delivery attempt ${attempt} to ${onResult.url} failed (${problem}).`,
    );
    if (attempt < RESULT_ATTEMPTS) await deps.sleep(RESULT_FIRST_WAIT_MS * 2 ** (attempt - 1));
  }
  return "failed";
}
