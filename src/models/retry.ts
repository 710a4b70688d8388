import { APICallError } from "@ai-sdk/provider";
import { BatonError } from "../core/errors.js";
import type { RetryPolicy } from "../core/llm.js";
import { isNetworkError, isTimeout, statusOf, toModelError } from "./model-error.js";

/** How a caller retries: the policy plus injected time and randomness (tests never really sleep). */
export interface RetryOptions {
  retry: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  /** In [0, 1). Defaults to `Math.random`. */
  random?: () => number;
  /** Milliseconds since the epoch, for HTTP-date `Retry-After`. Defaults to `Date.now`. */
  now?: () => number;
  signal?: AbortSignal;
}

/** A server's `Retry-After` is honoured above `maxDelayMs`, but never longer than this. */
export const RETRY_AFTER_CAP_MS = 60_000;

/**
 * Retried: 408, 429, 5xx, network errors and timeouts. Other 4xx (and everything else) are final. A
 * provider error without a status (no HTTP response) is retried when the AI SDK marked it retryable.
 * A `BatonError` is already classified, so it is final.
 */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof BatonError) return false;
  const status = statusOf(error);
  if (status !== undefined) return status === 408 || status === 429 || status >= 500;
  if (APICallError.isInstance(error)) return error.isRetryable;
  return isNetworkError(error) || isTimeout(error);
}

/** Whether the failure of try number `attempt` (1-based) gets another try. */
export function shouldRetry(error: unknown, attempt: number, options: RetryOptions): boolean {
  if (options.signal?.aborted) return false;
  return attempt < options.retry.attempts && isRetryableError(error);
}

function headerOf(error: unknown, name: string): string | undefined {
  if (!APICallError.isInstance(error) || !error.responseHeaders) return undefined;
  const entry = Object.entries(error.responseHeaders).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}

/**
 * The server's own delay hint in ms: `retry-after-ms` (OpenAI) first, then `Retry-After` as seconds or
 * an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(error: unknown, now: number): number | undefined {
  const ms = Number.parseFloat(headerOf(error, "retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headerOf(error, "retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before try `attempt + 1`. A server hint wins (clamped to `RETRY_AFTER_CAP_MS`, so it may exceed
 * `maxDelayMs`). Otherwise capped exponential backoff with equal jitter:
 * `base = min(maxDelayMs, initialDelayMs * 2^(attempt-1))`, `delay = base/2 + random() * base/2`.
 */
export function retryDelayMs(error: unknown, attempt: number, options: RetryOptions): number {
  const hint = retryAfterMs(error, (options.now ?? Date.now)());
  if (hint !== undefined) return Math.min(Math.ceil(hint), RETRY_AFTER_CAP_MS);
  const { initialDelayMs, maxDelayMs } = options.retry;
  const base = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
  const random = (options.random ?? Math.random)();
  return Math.round(base / 2 + random * (base / 2));
}

/**
 * After try number `tries` failed: throws the final failure as a `BatonError` with a `MODEL_*` code when
 * no retry is due (or `final`: a result already reached the caller), else waits before the next try.
 */
async function retryOrThrow(
  error: unknown,
  tries: number,
  options: RetryOptions,
  provider: string,
  final = false,
): Promise<void> {
  if (final || !shouldRetry(error, tries, options)) {
    throw toModelError(error, { provider, attempts: tries });
  }
  await options.sleep(retryDelayMs(error, tries, options));
}

/**
 * The retry loop for a stream: runs `attempt` (a fresh stream of results per try) until a try completes or its
 * failure is final. Once a result has reached the caller a retry would repeat it, so a later failure is
 * final too. The final failure is thrown as a `BatonError` with a `MODEL_*` code.
 */
export async function* withRetries<T>(
  attempt: () => AsyncIterable<T>,
  options: RetryOptions,
  provider: string,
): AsyncGenerator<T> {
  for (let tries = 1; ; tries++) {
    let yielded = false;
    try {
      for await (const result of attempt()) {
        yielded = true;
        yield result;
      }
      return;
    } catch (error) {
      await retryOrThrow(error, tries, options, provider, yielded);
    }
  }
}

/** `withRetries` for a call that answers once (no stream): the same policy and failures, as one promise. */
export async function retried<T>(
  attempt: () => Promise<T>,
  options: RetryOptions,
  provider: string,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      await retryOrThrow(error, tries, options, provider);
    }
  }
}

/**
 * One result as an async iterable, `answer` called on the first `next()`. A hand-written iterator, not an
 * async generator: each async generator a result passes through costs microtasks of its own, and a
 * non-streaming model call sits under several on every turn.
 */
export function single<T>(answer: () => Promise<T>): AsyncIterableIterator<T> {
  let done = false;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next(): Promise<IteratorResult<T>> {
      if (done) return { done: true, value: undefined };
      done = true;
      return { done: false, value: await answer() };
    },
    async return(): Promise<IteratorResult<T>> {
      done = true;
      return { done: true, value: undefined };
    },
  };
}
