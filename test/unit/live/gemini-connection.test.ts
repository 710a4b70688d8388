import { describe, expect, it } from "vitest";
import type { LiveResponse } from "../../../src/core/live-model.js";
import { GeminiLiveConnection } from "../../../src/live/gemini/gemini-connection.js";

/** A socket whose events the test fires by hand. */
function handSocket() {
  const listeners = new Map<string, ((event: never) => void)[]>();
  const sent: string[] = [];
  let closes = 0;
  const socket = {
    accept: () => undefined,
    send: (message: string) => void sent.push(message),
    close: () => void closes++,
    addEventListener(type: string, listener: (event: never) => void) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
  };
  const fire = (type: string, event: unknown) => {
    // SAFETY: the connection's listeners take the event shape the test passes for that type.
    for (const listener of listeners.get(type) ?? []) (listener as (e: unknown) => void)(event);
  };
  return { socket, sent, fire, closes: () => closes };
}

const all = async (responses: AsyncIterable<LiveResponse>) => {
  const seen: LiveResponse[] = [];
  for await (const response of responses) seen.push(response);
  return seen;
};

describe("GeminiLiveConnection", () => {
  it("reads Blob frames in arrival order, before a close that follows them", async () => {
    const { socket, fire } = handSocket();
    const connection = new GeminiLiveConnection(socket, "gemini-live");
    const frame = (message: unknown) => new Blob([JSON.stringify(message)]);
    fire("message", { data: frame({ setupComplete: {} }) });
    await connection.ready;
    fire("message", { data: frame({ serverContent: { modelTurn: { parts: [{ text: "a" }] } } }) });
    fire("message", { data: JSON.stringify({ serverContent: { modelTurn: { parts: [{ text: "b" }] } } }) });
    fire("message", { data: frame({ serverContent: { turnComplete: true } }) });
    fire("close", { code: 1000, reason: "" });
    expect(await all(connection.receive())).toEqual([
      { content: { role: "model", parts: [{ text: "a" }] }, partial: true },
      { content: { role: "model", parts: [{ text: "b" }] }, partial: true },
      { content: { role: "model", parts: [{ text: "ab" }] } },
      { turnComplete: true },
    ]);
  });

  it("keeps the newest resumable handle and ignores one Gemini marks not resumable", async () => {
    const { socket, fire } = handSocket();
    const connection = new GeminiLiveConnection(socket, "gemini-live");
    fire("message", { data: JSON.stringify({ setupComplete: {} }) });
    fire("message", {
      data: JSON.stringify({ sessionResumptionUpdate: { newHandle: "h1", resumable: true } }),
    });
    fire("message", {
      data: JSON.stringify({ sessionResumptionUpdate: { newHandle: "h2", resumable: false } }),
    });
    fire("close", { code: 1000, reason: "" });
    const updates = (await all(connection.receive())).map((r) => r.liveSessionResumptionUpdate);
    expect(updates).toEqual([
      { newHandle: "h1", resumable: true },
      { newHandle: "h2", resumable: false },
    ]);
    expect(connection.resumptionHandle).toBe("h1");
  });

  it("refuses a send the socket cannot take as an unavailable model, not a raw error", async () => {
    const { socket, fire } = handSocket();
    const connection = new GeminiLiveConnection(
      {
        ...socket,
        send: () => {
          throw new TypeError("WebSocket is closed");
        },
      },
      "gemini-live",
    );
    fire("message", { data: JSON.stringify({ setupComplete: {} }) });
    await connection.ready;
    await expect(connection.sendActivityStart()).rejects.toMatchObject({
      code: "MODEL_UNAVAILABLE",
      message: "The Gemini Live session of gemini-live is closed: WebSocket is closed",
    });
  });

  it("refuses the session when the socket closes before setupComplete", async () => {
    const { socket, fire, closes } = handSocket();
    const connection = new GeminiLiveConnection(socket, "gemini-live");
    fire("close", { code: 1008, reason: "models/x is not found for API version v1beta" });
    await expect(connection.ready).rejects.toMatchObject({ code: "MODEL_NOT_FOUND" });
    expect(await all(connection.receive())).toEqual([]);
    // The closing handshake is answered once; closing the session afterwards sends nothing more.
    await connection.close();
    expect(closes()).toBe(1);
  });
});
