import { describe, inject } from "vitest";
import { geminiLiveCases } from "../../support/gemini-live-cases.js";

// workerd's own fetch opens the sockets (`Upgrade: websocket`, `response.webSocket.accept()`).
describe("geminiLiveModel in workerd", () => {
  geminiLiveCases(() => ({ origin: inject("fakeGeminiLiveOrigin") }));
});
