import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { BatonError } from "../../../src/core/errors.js";
import { redact, toModelError } from "../../../src/models/model-error.js";
import { httpError } from "./fakes.js";

const context = { provider: "openai.chat", attempts: 1 };

describe("toModelError", () => {
  it.each([
    [429, "MODEL_RATE_LIMITED"],
    [401, "MODEL_AUTH_FAILED"],
    [403, "MODEL_AUTH_FAILED"],
    [408, "MODEL_TIMEOUT"],
    [404, "MODEL_NOT_FOUND"],
    [400, "MODEL_BAD_REQUEST"],
    [422, "MODEL_BAD_REQUEST"],
    [500, "MODEL_UNAVAILABLE"],
    [503, "MODEL_UNAVAILABLE"],
  ])("classifies HTTP %i as %s and keeps the status", (status, code) => {
    const error = toModelError(httpError(status), context);
    expect(error).toBeInstanceOf(BatonError);
    expect(error.code).toBe(code);
    expect(error.upstreamStatus).toBe(status);
  });

  it("classifies network errors as unavailable and timeouts as timeouts", () => {
    expect(toModelError(new TypeError("fetch failed"), context).code).toBe("MODEL_UNAVAILABLE");
    const noStatus = new APICallError({ message: "Cannot connect", url: "u", requestBodyValues: {} });
    expect(toModelError(noStatus, context).code).toBe("MODEL_UNAVAILABLE");
    expect(toModelError(new DOMException("slow", "TimeoutError"), context).code).toBe("MODEL_TIMEOUT");
  });

  it("classifies anything else as MODEL_ERROR", () => {
    expect(toModelError(new Error("odd"), context).code).toBe("MODEL_ERROR");
    expect(toModelError("a string", context).code).toBe("MODEL_ERROR");
  });

  it("writes a short message with the provider, the status, the attempts and the provider's words", () => {
    const error = toModelError(httpError(503, undefined, "The server is overloaded"), {
      ...context,
      attempts: 3,
    });
    expect(error.message).toBe(
      "Model call to openai.chat failed (HTTP 503) after 3 attempts: The server is overloaded",
    );
  });

  it("passes a BatonError through unchanged", () => {
    const original = new BatonError("MODEL_ERROR", "already classified");
    expect(toModelError(original, context)).toBe(original);
  });

  it("never repeats an API key from the provider's message", () => {
    const leaky = httpError(
      401,
      undefined,
      "Incorrect API key provided: sk-proj-abcdEFGH1234****wxyz. See docs.",
    );
    const error = toModelError(leaky, context);
    expect(error.code).toBe("MODEL_AUTH_FAILED");
    expect(error.message).not.toMatch(/abcdEFGH|wxyz/);
    expect(error.message).toContain("[redacted]");
  });
});

describe("redact", () => {
  it("removes Google keys, bearer tokens and key query parameters", () => {
    const text = redact(
      "bad AIzaSyA1234567890abcdefg and Bearer abc.def and https://x.example/?key=secret&x=1",
    );
    expect(text).not.toMatch(/AIzaSy|abc\.def|secret/);
  });

  it("shortens very long messages", () => {
    expect(redact("x".repeat(1_000)).length).toBeLessThanOrEqual(300);
  });
});
