import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { demoApp } from "../../../src/demo/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { a2aWorker, BASE_URL } from "../support/a2a.js";
import { noSleep } from "../support/http.js";

const services = { sleep: noSleep, log: () => undefined };

const sessionOf = (contextId: string) =>
  new DurableObjectSessionStore(env).getSession({
    appName: "demo",
    userId: `A2A_USER_${contextId}`,
    sessionId: contextId,
  });

/** `{"k":{"k":…1…}}`, `depth` objects deep, written as text (no recursion makes it). */
const nested = (depth: number) => `${'{"k":'.repeat(depth)}1${"}".repeat(depth)}`;

/** A 1.0 `SendMessage` body for the HTTP+JSON binding whose message metadata is `metadata` (JSON text). */
const sendBody = (contextId: string, metadata: string) =>
  `{"message":{"messageId":"m-${contextId}","role":"ROLE_USER","contextId":"${contextId}","parts":[{"text":"hi"}],"metadata":${metadata}}}`;

async function restSend(body: string) {
  const { fetchImpl } = a2aWorker({ apps: [demoApp], services });
  const res = await fetchImpl(`${BASE_URL}/a2a/demo/message:send`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: res.status, body: await res.text() };
}

describe("A2A's HTTP+JSON binding behind the one body guard", () => {
  it("answers 400 INVALID_ARGUMENT to metadata nested past 64 levels, however deep, storing nothing", async () => {
    for (const depth of [65, 1_000, 1_500, 3_000]) {
      const contextId = crypto.randomUUID();
      const answer = await restSend(sendBody(contextId, nested(depth)));
      expect([depth, answer.status]).toEqual([depth, 400]);
      expect(JSON.parse(answer.body)).toMatchObject({
        error: {
          code: 400,
          status: "INVALID_ARGUMENT",
          message: expect.stringMatching(/nests deeper than 64/),
        },
      });
      expect(await sessionOf(contextId)).toBeNull();
    }
  });

  it("answers 400 to __proto__ and constructor keys anywhere in the body, storing nothing", async () => {
    for (const metadata of ['{"__proto__":{"admin":true}}', '{"a":[{"constructor":{"x":1}}]}']) {
      const contextId = crypto.randomUUID();
      const answer = await restSend(sendBody(contextId, metadata));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatch(/Refused key \\"(__proto__|constructor)\\"/);
      expect(await sessionOf(contextId)).toBeNull();
    }
  });

  it("still runs a message whose metadata nests 60 levels, the body within 64", async () => {
    const contextId = crypto.randomUUID();
    const answer = await restSend(sendBody(contextId, nested(60)));
    expect(answer.status).toBe(200);
    expect(await sessionOf(contextId)).not.toBeNull();
  });

  it("answers a push config body nested too deep with 400 before looking for the task", async () => {
    const { fetchImpl } = a2aWorker({ apps: [demoApp], services }, { A2A_PUSH_HOSTS: "*" });
    const res = await fetchImpl(`${BASE_URL}/a2a/demo/tasks/t-1:c-1/pushNotificationConfigs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"url":"https://hooks.example.com/a","metadata":${nested(3000)}}`,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/nests deeper than 64/);
  });
});

describe("JSON-RPC method names that Object.prototype holds", () => {
  const names = [...Object.getOwnPropertyNames(Object.prototype), "__proto__", "prototype"];

  it.each(["0.3", "1.0", undefined])(
    "are unknown methods (-32601) with A2A-Version %s, never a 500",
    async (version) => {
      const { fetchImpl } = a2aWorker({ apps: [demoApp], services });
      for (const method of names) {
        const headers = new Headers({ "content-type": "application/json" });
        if (version) headers.set("A2A-Version", version);
        const res = await fetchImpl(`${BASE_URL}/a2a/demo`, {
          method: "POST",
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: {} }),
        });
        const body = await res.text();
        expect([method, res.status]).toEqual([method, 200]);
        expect([method, JSON.parse(body).error?.code]).toEqual([method, -32601]);
      }
    },
  );
});
