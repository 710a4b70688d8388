import { describe, expect, it } from "vitest";
import { BatonError } from "../../../src/core/errors.js";
import {
  finalResponse,
  finishReasonName,
  partFromOutput,
  usageMetadataOf,
} from "../../../src/models/convert-response.js";
import { finish, usage } from "./fakes.js";

describe("partFromOutput", () => {
  it("turns text into a text part and reasoning into a thought part", () => {
    expect(partFromOutput({ type: "text", text: "hi" })).toEqual({ text: "hi" });
    expect(partFromOutput({ type: "reasoning", text: "hmm" })).toEqual({ text: "hmm", thought: true });
  });

  it("keeps a provider's tool-call id and parses the JSON input into args", () => {
    const part = partFromOutput({ type: "tool-call", toolCallId: "call_9", toolName: "f", input: '{"a":1}' });
    expect(part).toEqual({ functionCall: { id: "call_9", name: "f", args: { a: 1 } } });
  });

  it("leaves an empty tool-call id undefined so the agent can mint one", () => {
    const part = partFromOutput({ type: "tool-call", toolCallId: "", toolName: "f", input: "" });
    expect(part).toEqual({ functionCall: { name: "f", args: {} } });
  });

  it("rejects tool-call input that is not JSON", () => {
    expect(() =>
      partFromOutput({ type: "tool-call", toolCallId: "x", toolName: "f", input: "{oops" }),
    ).toThrow(BatonError);
  });

  it("drops provider-executed tool calls and sources", () => {
    expect(
      partFromOutput({
        type: "tool-call",
        toolCallId: "x",
        toolName: "web",
        input: "{}",
        providerExecuted: true,
      }),
    ).toBeUndefined();
    expect(
      partFromOutput({ type: "source", sourceType: "url", id: "s", url: "https://a.example" }),
    ).toBeUndefined();
  });

  it("keeps Gemini's thought signature and encodes binary files as base64", () => {
    const signed = partFromOutput({
      type: "tool-call",
      toolCallId: "c",
      toolName: "f",
      input: "{}",
      providerMetadata: { google: { thoughtSignature: "sig" } },
    });
    expect(signed).toMatchObject({ thoughtSignature: "sig" });
    const file = partFromOutput({ type: "file", mediaType: "image/png", data: new Uint8Array([104, 105]) });
    expect(file).toEqual({ inlineData: { mimeType: "image/png", data: "aGk=" } });
  });
});

describe("finishReasonName", () => {
  it.each([
    ["stop", "stop", "STOP"],
    ["length", "length", "MAX_TOKENS"],
    ["content-filter", "content_filter", "SAFETY"],
    ["tool-calls", "tool_calls", "STOP"],
    ["other", undefined, "OTHER"],
    ["content-filter", "RECITATION", "RECITATION"],
  ] as const)("maps %s (raw %s) to %s", (unified, raw, name) => {
    expect(finishReasonName(finish(unified, raw))).toBe(name);
  });
});

describe("usageMetadataOf", () => {
  it("maps usage to genai token counts", () => {
    expect(usageMetadataOf(usage(10, 4))).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 4,
      totalTokenCount: 14,
    });
  });

  it("adds the reasoning tokens as thoughtsTokenCount when there are any", () => {
    const thinking = usage(10, 4);
    thinking.outputTokens.reasoning = 3;
    expect(usageMetadataOf(thinking)).toMatchObject({ thoughtsTokenCount: 3, totalTokenCount: 14 });
    expect(usageMetadataOf(usage(10, 4))).not.toHaveProperty("thoughtsTokenCount");
  });

  it("returns nothing when no count is known", () => {
    const empty = usage();
    empty.inputTokens.total = undefined;
    empty.outputTokens.total = undefined;
    expect(usageMetadataOf(empty)).toBeUndefined();
  });
});

describe("finalResponse", () => {
  const base = { usage: usage(), modelVersion: "m", streaming: false };

  it("returns the content with role model and the finish reason", () => {
    const response = finalResponse({ ...base, parts: [{ text: "ok" }], finishReason: finish("stop") });
    expect(response).toMatchObject({
      content: { role: "model", parts: [{ text: "ok" }] },
      finishReason: "STOP",
    });
    expect(response.errorCode).toBeUndefined();
  });

  it("turns a content filter with no content into a SAFETY error response without content", () => {
    const response = finalResponse({ ...base, parts: [], finishReason: finish("content-filter") });
    expect(response.errorCode).toBe("SAFETY");
    expect(response.errorMessage).toMatch(/SAFETY/);
    expect(response.content).toBeUndefined();
  });

  it("flags a non-streaming STOP with no content as MODEL_RETURNED_NO_CONTENT", () => {
    const response = finalResponse({ ...base, parts: [], finishReason: finish("stop") });
    expect(response.errorCode).toBe("MODEL_RETURNED_NO_CONTENT");
  });

  it("does not flag an empty streaming STOP", () => {
    const response = finalResponse({ ...base, streaming: true, parts: [], finishReason: finish("stop") });
    expect(response.errorCode).toBeUndefined();
  });

  it("throws MODEL_ERROR for an error finish, but passes Gemini's named error finishes through", () => {
    expect(() => finalResponse({ ...base, parts: [], finishReason: finish("error", "error") })).toThrow(
      /stopped with an error/,
    );
    const malformed = finalResponse({
      ...base,
      parts: [],
      finishReason: finish("error", "MALFORMED_FUNCTION_CALL"),
    });
    expect(malformed.errorCode).toBe("MALFORMED_FUNCTION_CALL");
  });
});
