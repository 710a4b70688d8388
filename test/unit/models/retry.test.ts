import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import {
  isRetryableError,
  RETRY_AFTER_CAP_MS,
  type RetryOptions,
  retryAfterMs,
  retryDelayMs,
  shouldRetry,
} from "../../../src/models/retry.js";
import { httpError } from "./fakes.js";

const options = (random = 0, extra: Partial<RetryOptions> = {}): RetryOptions => ({
  retry: { attempts: 5, initialDelayMs: 100, maxDelayMs: 1_000 },
  sleep: async () => undefined,
  random: () => random,
  now: () => Date.parse("2026-01-01T00:00:00Z"),
  ...extra,
});

describe("isRetryableError", () => {
  it.each([408, 429, 500, 502, 503, 529])("retries HTTP %i", (status) => {
    expect(isRetryableError(httpError(status))).toBe(true);
  });

  it.each([400, 401, 403, 404, 409, 422])("does not retry HTTP %i", (status) => {
    expect(isRetryableError(httpError(status))).toBe(false);
  });

  it("retries network failures: fetch's TypeError, an APICallError without status, a timeout", () => {
    expect(isRetryableError(new TypeError("fetch failed"))).toBe(true);
    // What the AI SDK throws when fetch fails: no status, marked retryable by the SDK itself.
    const noStatus = new APICallError({
      message: "Cannot connect to API",
      url: "u",
      requestBodyValues: {},
      isRetryable: true,
    });
    expect(isRetryableError(noStatus)).toBe(true);
    expect(isRetryableError(new DOMException("timed out", "TimeoutError"))).toBe(true);
  });

  it("takes the AI SDK's word for a provider error without a status", () => {
    const final = new APICallError({
      message: "Bad URL",
      url: "u",
      requestBodyValues: {},
      isRetryable: false,
    });
    expect(isRetryableError(final)).toBe(false);
  });

  it("does not retry programming errors", () => {
    expect(isRetryableError(new TypeError("x.map is not a function"))).toBe(false);
    expect(isRetryableError(new Error("boom"))).toBe(false);
  });
});

describe("shouldRetry", () => {
  it("stops when the attempts are used up", () => {
    expect(shouldRetry(httpError(503), 4, options())).toBe(true);
    expect(shouldRetry(httpError(503), 5, options())).toBe(false);
  });

  it("never retries once the caller's signal is aborted", () => {
    const controller = new AbortController();
    controller.abort();
    expect(shouldRetry(httpError(503), 1, options(0, { signal: controller.signal }))).toBe(false);
  });
});

describe("retryAfterMs", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads Retry-After in seconds, case-insensitively", () => {
    expect(retryAfterMs(httpError(429, { "Retry-After": "7" }), now)).toBe(7_000);
    expect(retryAfterMs(httpError(429, { "retry-after": "1.5" }), now)).toBe(1_500);
  });

  it("reads Retry-After as an HTTP date", () => {
    expect(retryAfterMs(httpError(503, { "retry-after": "Thu, 01 Jan 2026 00:00:12 GMT" }), now)).toBe(
      12_000,
    );
  });

  it("prefers retry-after-ms", () => {
    expect(retryAfterMs(httpError(429, { "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
  });

  it("ignores missing or unreadable values", () => {
    expect(retryAfterMs(httpError(429), now)).toBeUndefined();
    expect(retryAfterMs(httpError(429, { "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(new Error("x"), now)).toBeUndefined();
  });
});

describe("retryDelayMs", () => {
  it("doubles from the initial delay up to the cap, with equal jitter", () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(httpError(503), n, options(0)))).toEqual([
      50, 100, 200, 400, 500,
    ]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(httpError(503), n, options(0.999999)))).toEqual([
      100, 200, 400, 800, 1_000,
    ]);
  });

  it("honours a Retry-After longer than maxDelayMs, up to the hard cap", () => {
    expect(retryDelayMs(httpError(429, { "retry-after": "7" }), 1, options())).toBe(7_000);
    expect(retryDelayMs(httpError(429, { "retry-after": "3600" }), 1, options())).toBe(RETRY_AFTER_CAP_MS);
  });
});
