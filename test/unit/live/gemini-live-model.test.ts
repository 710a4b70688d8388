import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bidiUrl, closeErrorCode } from "../../../src/live/gemini/live-socket.js";
import { type FakeGeminiLive, startFakeGeminiLive } from "../../support/fake-gemini-live.js";
import { geminiLiveCases } from "../../support/gemini-live-cases.js";
import { nodeWebSocketFetch } from "../../support/node-websocket-fetch.js";

describe("geminiLiveModel in Node 20 (the fetch option opens the socket)", () => {
  let fake: FakeGeminiLive | undefined;
  beforeAll(async () => {
    fake = await startFakeGeminiLive();
  });
  afterAll(() => fake?.close());
  geminiLiveCases(() => ({ origin: fake?.origin ?? "http://127.0.0.1:9", fetch: nodeWebSocketFetch }));
});

describe("the Gemini Live socket", () => {
  it("puts BidiGenerateContent under Gemini's origin or the base URL, without its API version", () => {
    const path = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";
    expect(bidiUrl(undefined)).toBe(`https://generativelanguage.googleapis.com${path}`);
    expect(bidiUrl("https://generativelanguage.googleapis.com/v1beta/")).toBe(
      `https://generativelanguage.googleapis.com${path}`,
    );
    expect(bidiUrl("wss://proxy.example/gemini")).toBe(`https://proxy.example/gemini${path}`);
    expect(bidiUrl("http://127.0.0.1:8787")).toBe(`http://127.0.0.1:8787${path}`);
  });

  it("names the MODEL_* code of a close by its reason first, then its code", () => {
    expect(closeErrorCode(1007, "API key not valid. Please pass a valid API key.")).toBe("MODEL_AUTH_FAILED");
    expect(closeErrorCode(1011, "You exceeded your current quota")).toBe("MODEL_RATE_LIMITED");
    expect(closeErrorCode(1008, "models/x is not found for API version v1beta")).toBe("MODEL_NOT_FOUND");
    expect(closeErrorCode(1007, "Request contains an invalid argument.")).toBe("MODEL_BAD_REQUEST");
    expect(closeErrorCode(1006, "")).toBe("MODEL_UNAVAILABLE");
    expect(closeErrorCode(4000, "")).toBe("MODEL_ERROR");
  });
});
