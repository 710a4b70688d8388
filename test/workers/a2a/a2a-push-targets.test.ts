import { type Task, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { a2aWorker, BASE_URL, userMessage, v1Client } from "../support/a2a.js";
import { gatedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";

const services = { sleep: noSleep, log: () => undefined };

/** A finished task, and a way to set push configs on it over HTTP+JSON under the push hosts `hosts`. */
async function setup(hosts: string) {
  const gate = gatedApp(`push-to-${crypto.randomUUID().slice(0, 8)}`);
  gate.open();
  const { fetchImpl } = a2aWorker({ apps: [gate.app], services }, { A2A_PUSH_HOSTS: hosts });
  const client = await v1Client(fetchImpl, gate.app.name);
  const task = (await client.sendMessage({
    tenant: "",
    message: userMessage("go"),
    configuration: undefined,
    metadata: undefined,
  })) as Task;
  expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  const base = `${BASE_URL}/a2a/${gate.app.name}/tasks/${encodeURIComponent(task.id)}/pushNotificationConfigs`;
  return async (url: string) => {
    const res = await fetchImpl(base, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url }),
    });
    const body = (await res.json()) as { error?: { message: string } };
    return { status: res.status, message: body.error?.message ?? "" };
  };
}

describe("A2A push targets under the policy npm run dev sets (*, localhost, 127.0.0.1)", () => {
  it("refuses a host name the policy does not name, whatever it resolves to, and http: to any unnamed host", async () => {
    const set = await setup("*,localhost,127.0.0.1");
    expect(await set("http://vm:19300/hook")).toMatchObject({ status: 400, message: /http: goes only/ });
    expect(await set("https://vm:19300/hook")).toMatchObject({ status: 400, message: /private/ });
    expect(await set("https://hooks.example.com/hook")).toMatchObject({
      status: 400,
      message: /host name, which `\*` does not cover/,
    });
    expect(await set("http://93.184.216.34/hook")).toMatchObject({ status: 400, message: /use https:/ });
    expect((await set("https://93.184.216.34/hook")).status).toBe(201);
    expect((await set("http://127.0.0.1:9/hook")).status).toBe(201);
    expect((await set("http://localhost:9/hook")).status).toBe(201);
  });

  it("classes IPv6 forms of loopback and private addresses as such", async () => {
    const set = await setup("*,localhost,127.0.0.1");
    for (const url of [
      "https://[::7f00:1]:19300/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[::ffff:0:7f00:1]/hook",
      "https://[64:ff9b::a9fe:a9fe]/latest",
      "https://[2002:7f00:1::1]/hook",
      "https://[::1]/hook",
      "https://[fd12::1]/hook",
    ])
      expect([url, await set(url)]).toEqual([
        url,
        { status: 400, message: expect.stringMatching(/private/) },
      ]);
  });

  it("sends to a host name the policy names, by itself or by its domain", async () => {
    const set = await setup("*,hooks.example.com,*.partner.example");
    expect((await set("https://hooks.example.com/hook")).status).toBe(201);
    expect((await set("https://a.partner.example/hook")).status).toBe(201);
    expect((await set("https://partner.example/hook")).status).toBe(400);
  });
});
