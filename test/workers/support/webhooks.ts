import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { userText } from "../../../src/core/content.js";
import { inboundEmail } from "../../../src/email/email-support.js";
import type { IncomingEmail } from "../../../src/email/receive-email.js";
import { createWorker, type WorkerOptions } from "../../../src/handlers/create-worker.js";
import { openaiCompatible } from "../../../src/models/openai-compatible-provider.js";
import type { TurnMessage } from "../../../src/webhooks/turn-record.js";
import { verifiers } from "../../../src/webhooks/verifiers.js";
import { webhook } from "../../../src/webhooks/webhook.js";
import { expectJson, noSleep, TEST_TOKEN } from "./http.js";

export const TURNS_QUEUE = "baton-turns";
export const DEAD_LETTER_QUEUE = "baton-turns-dlq";

/** A turn as `GET /turns/:turnId` shows it. */
export interface TurnView {
  turnId: string;
  status: "queued" | "running" | "done" | "failed";
  appName: string;
  origin: "webhook" | "schedule" | "email" | "reminder";
  userId: string;
  sessionId: string;
}

/**
 * A `createWorker` Worker whose `TURNS` producer is the real local queue `baton-turns-test` (no consumer)
 * and records what it sent, so a test hands exactly those messages to the Worker's own `queue` handler
 * with `createMessageBatch` and reads the acks and retries with `getQueueResult`.
 */
export function hookWorker(options: WorkerOptions, vars: Record<string, unknown> = {}) {
  const worker = createWorker({ models: [openaiCompatible()], email: inboundEmail, ...options });
  const sent: TurnMessage[] = [];
  /** The delay each message in `sent` was sent with (a turn waiting for its session is sent again, delayed). */
  const delays: (number | undefined)[] = [];
  const turns = {
    async send(message: TurnMessage, options?: QueueSendOptions) {
      sent.push(message);
      delays.push(options?.delaySeconds);
      return env.TEST_TURNS.send(message, options);
    },
  };
  const envWith = (extra: Record<string, string | undefined> = {}) => ({
    ...env,
    API_TOKENS: TEST_TOKEN,
    TURNS: turns,
    ...vars,
    ...extra,
  });
  let messages = 0;
  /** Hands messages to the Worker's queue handler as one batch from `queue`; returns what it acked and retried. */
  const deliver = async (
    queue: string,
    bodies: readonly unknown[],
    attempts: number,
    extra?: Record<string, string | undefined>,
  ) => {
    const batch = createMessageBatch(
      queue,
      bodies.map((body) => ({ id: `msg-${++messages}`, timestamp: new Date(), attempts, body })),
    );
    // getQueueResult reports which messages were retried but not their delays: note those on the way.
    const delays = new Map<string, number | undefined>();
    const observed = noteRetryDelays(batch, (id, delaySeconds) => delays.set(id, delaySeconds));
    const ctx = createExecutionContext();
    await worker.queue(observed, envWith(extra), ctx);
    const result = await getQueueResult(batch, ctx);
    const retried = result.retryMessages.map((r: { msgId: string }) => ({
      msgId: r.msgId,
      delaySeconds: delays.get(r.msgId),
    }));
    return { acked: result.explicitAcks.length, retried, outcome: result.outcome };
  };
  const call = async (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const { token = TEST_TOKEN, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token !== null) headers.set("authorization", `Bearer ${token}`);
    const ctx = createExecutionContext();
    // SAFETY: an incoming request differs only in its `cf` object, which no handler reads.
    const request = new Request(`http://baton.test${path}`, { ...rest, headers }) as Request<
      unknown,
      IncomingRequestCfProperties
    >;
    const response = await worker.fetch(request, envWith(), ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
  return {
    sent,
    delays,
    call,
    /** POSTs a delivery: the body as given, signature headers as given, no API token. */
    post: (path: string, body: string, headers: Record<string, string> = {}) =>
      call(path, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...headers },
        token: null,
      }),
    turn: (turnId: string) => expectJson<TurnView>(call(`/turns/${turnId}`), 200),
    /** The messages sent so far (or these), consumed from `TURNS` as attempt `attempts`. */
    consume: (bodies: readonly unknown[] = sent, attempts = 1, extra?: Record<string, string | undefined>) =>
      deliver(TURNS_QUEUE, bodies, attempts, extra),
    deadLetter: (bodies: readonly unknown[]) => deliver(DEAD_LETTER_QUEUE, bodies, 1),
    /** Runs the Worker's `email` handler as Email Routing does for a message to one of its addresses. */
    email: async (message: IncomingEmail) => {
      const ctx = createExecutionContext();
      await worker.email(message, envWith(), ctx);
      await waitOnExecutionContext(ctx);
    },
    /** Runs the Worker's `scheduled` handler as Cloudflare does when `cron` fires at `scheduledTime` (ms). */
    scheduled: async (cron: string, scheduledTime: number) => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ cron, scheduledTime }), envWith(), ctx);
      await waitOnExecutionContext(ctx);
    },
  };
}

const encoder = new TextEncoder();

async function hmac(key: Uint8Array<ArrayBuffer>, message: string): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(message)));
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const keyOf = (secret: string) => new Uint8Array(encoder.encode(secret));

/** Signs bodies the way each provider documents it (computed here with Web Crypto, apart from Baton's code). */
export const sign = {
  github: async (secret: string, body: string) => ({
    "x-hub-signature-256": `sha256=${hex(await hmac(keyOf(secret), body))}`,
  }),
  slack: async (secret: string, body: string, timestamp: number) => ({
    "x-slack-request-timestamp": String(timestamp),
    "x-slack-signature": `v0=${hex(await hmac(keyOf(secret), `v0:${timestamp}:${body}`))}`,
  }),
  stripe: async (secret: string, body: string, timestamp: number) => ({
    "stripe-signature": `t=${timestamp},v1=${hex(await hmac(keyOf(secret), `${timestamp}.${body}`))}`,
  }),
  /** With the `standardwebhooks` package itself. */
  standardWebhooks: (secret: string, body: string, id: string, timestamp: number) => ({
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": new Webhook(secret).sign(id, new Date(timestamp * 1000), body),
  }),
};

/** A fixed clock for signature tolerance checks: `at` in Unix seconds. */
export const clockAt = (at: number) => ({ now: () => at * 1000 });

/** Services for a webhook Worker under test: no retry waits, fixed jitter, the clock at `at`, logs kept. */
export const hookServices = (at: number, logs: string[]) => ({
  sleep: noSleep,
  random: () => 0.5,
  clock: clockAt(at),
  log: (line: string) => void logs.push(line),
});

/**
 * A Standard Webhooks hook named `events` (its secret the var `EVENTS_KEY`) whose `{ session, text }`
 * payloads become turns of user `hooks`; `onResult` posts each turn's result back.
 */
export const sessionTextHook = (onResult?: { url: string; secretName: string }) =>
  webhook<{ session: string; text: string }>({
    name: "events",
    verify: verifiers.standardWebhooks({ secretName: "EVENTS_KEY" }),
    toTurn: ({ payload }) => ({
      userId: "hooks",
      sessionId: payload.session,
      newMessage: userText(payload.text),
    }),
    ...(onResult ? { onResult } : {}),
  });

/** A GitHub `issue_comment` delivery body. */
export const issueComment = (issue: number, body: string, action = "created") =>
  JSON.stringify({
    action,
    issue: { number: issue, title: "A bug", body: null, user: { login: "octocat" } },
    comment: { id: issue * 10, body, user: { login: "octocat" } },
    repository: { full_name: "octo/repo" },
    sender: { login: "octocat" },
  });

/**
 * `batch` as a queue handler sees it, with each `retry`'s delay noted on the way (`getQueueResult` reports
 * which messages were retried, not their delays).
 */
export function noteRetryDelays(
  batch: MessageBatch<unknown>,
  note: (messageId: string, delaySeconds: number | undefined) => void,
): MessageBatch<unknown> {
  return {
    queue: batch.queue,
    metadata: batch.metadata,
    messages: batch.messages.map((m) => ({
      id: m.id,
      timestamp: m.timestamp,
      body: m.body,
      attempts: m.attempts,
      ack: () => m.ack(),
      retry: (options?: QueueRetryOptions) => {
        note(m.id, options?.delaySeconds);
        m.retry(options);
      },
    })),
    ackAll: () => batch.ackAll(),
    retryAll: (options?: QueueRetryOptions) => batch.retryAll(options),
  };
}
