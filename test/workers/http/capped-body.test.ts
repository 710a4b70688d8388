import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../../src/handlers/api.js";
import { helloWorker as setup } from "../support/hello-worker.js";
import { expectJson } from "../support/http.js";

/** A body streamed in 64 KiB chunks with no Content-Length (what a chunked upload is to the Worker). */
function streamed(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

describe("request bodies are read with a byte cap before anything answers", () => {
  it("answers a 2 MB streamed body with 413 on every route, refusals before auth included", async () => {
    const { call, app, user } = setup();
    for (const [path, token] of [
      ["/run", undefined],
      [`/apps/${app}/users/${user}/sessions`, undefined],
      ["/run", null],
    ] as const) {
      const res = call(path, {
        method: "POST",
        body: streamed(2 * 1024 * 1024),
        ...(token === null ? { token } : {}),
      });
      expect((await expectJson<{ code: string }>(res, 413)).code).toBe("payload_too_large");
    }
    expect(await expectJson(call(`/apps/${app}/users/${user}/sessions`), 200)).toEqual([]);
  });

  it("reads a streamed body just under the limit and hands it on (here: not JSON, so 400)", async () => {
    const { call } = setup();
    const res = call("/run", { method: "POST", body: streamed(MAX_BODY_BYTES - 64 * 1024) });
    expect((await expectJson<{ detail: string }>(res, 400)).detail).toBe("The body is not valid JSON.");
  });

  it("answers A2A's oversized streamed body with 413 and a JSON-RPC -32600", async () => {
    const { call, app } = setup();
    const res = await call(`/a2a/${app}`, { method: "POST", body: streamed(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect((await res.json()) as unknown).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
  });

  it("hands a body on as it came when its Content-Length is within the limit, and refuses one over it", async () => {
    const { call } = setup();
    const under = "a".repeat(MAX_BODY_BYTES);
    const passed = call("/run", {
      method: "POST",
      body: under,
      headers: { "content-length": String(under.length) },
    });
    expect((await expectJson<{ detail: string }>(passed, 400)).detail).toBe("The body is not valid JSON.");
    const over = "a".repeat(MAX_BODY_BYTES + 1);
    const refused = call("/run", {
      method: "POST",
      body: over,
      headers: { "content-length": String(over.length) },
    });
    expect((await expectJson<{ code: string }>(refused, 413)).code).toBe("payload_too_large");
  });
});
