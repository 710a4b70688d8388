import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { checkedFetch } from "../../../src/a2a/server/checked-fetch.js";
import { directPush } from "../../../src/a2a/server/direct-push.js";
import { pushPolicyFromList } from "../../../src/a2a/server/push-policy.js";
import type { PushNotice } from "../../../src/core/task-store.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A receiver on 127.0.0.1 (an ephemeral port) counting what reaches it. */
async function receiver() {
  const received: string[] = [];
  server = createServer((request, response) => {
    received.push(`${request.method} ${request.headers.host} ${request.url}`);
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  });
  await new Promise<void>((listening) => server?.listen(0, "127.0.0.1", listening));
  // SAFETY: a server listening on a TCP port has an AddressInfo address.
  return { port: (server.address() as AddressInfo).port, received };
}

/** A resolver that knows one public-looking name, which its owner has pointed at loopback. */
const rebound =
  (name: string) =>
  (
    hostname: string,
    _options: unknown,
    callback: (error: NodeJS.ErrnoException | null, addresses: { address: string; family: number }[]) => void,
  ) =>
    hostname === name
      ? callback(null, [{ address: "127.0.0.1", family: 4 }])
      : callback(Object.assign(new Error(`no such name ${hostname}`), { code: "ENOTFOUND" }), []);

const post = { method: "POST", headers: { "content-type": "application/json" }, body: "{}" };

describe("push deliveries from a Node host, addresses checked before each connection", () => {
  it("refuses a named public host that resolves to a loopback address, and nothing reaches the receiver", async () => {
    const { port, received } = await receiver();
    const fetch = checkedFetch(pushPolicyFromList("*, hooks.example.com"), rebound("hooks.example.com"));
    await expect(fetch(`http://hooks.example.com:${port}/hook`, post)).rejects.toThrow(
      /hooks\.example\.com resolves to 127\.0\.0\.1, a private, loopback or link-local address/,
    );
    expect(received).toEqual([]);
  });

  it("delivers when the policy names the loopback address, or the local name that leads to it", async () => {
    const { port, received } = await receiver();
    const named = checkedFetch(
      pushPolicyFromList("hooks.example.com, 127.0.0.1"),
      rebound("hooks.example.com"),
    );
    expect((await named(`http://hooks.example.com:${port}/a`, post)).status).toBe(204);
    const local = checkedFetch(pushPolicyFromList("localhost"), rebound("localhost"));
    expect((await local(`http://localhost:${port}/b`, post)).status).toBe(204);
    expect(received).toEqual([`POST hooks.example.com:${port} /a`, `POST localhost:${port} /b`]);
  });

  it("is directPush's own way to send, over Node's resolver: a named local name is delivered to", async () => {
    const { port, received } = await receiver();
    const logs: string[] = [];
    const policy = pushPolicyFromList("*, localhost");
    const push = directPush({ policy, log: (line) => void logs.push(line), sleep: async () => undefined });
    const notice = {
      key: { appName: "a", userId: "u", sessionId: "s", taskId: "t" },
      config: { id: "c1", url: `http://localhost:${port}/x`, version: "0.3" },
      record: { snapshot: { id: "t", contextId: "s", kind: "task", status: { state: "working" } } },
    };
    // SAFETY: the fields a delivery reads; the snapshot is a 0.3 task as the store keeps it.
    push(notice as unknown as PushNotice);
    await expect.poll(() => received.length, { timeout: 5_000 }).toBe(1);
    expect(received).toEqual([`POST localhost:${port} /x`]);
    expect(logs).toEqual([]);
  });
});
