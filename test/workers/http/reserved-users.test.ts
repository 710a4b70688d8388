import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { GateAgent } from "../support/gate-agent.js";
import { expectJson, freshIds, noSleep } from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";
import { hookWorker } from "../support/webhooks.js";

const PASS =
  "mx.cloudflare.net; dkim=pass header.d=example.com header.s=s1; spf=pass smtp.mailfrom=example.com; dmarc=pass header.from=example.com";

/** A message from Alice as Email Routing hands it over (verified by the receiving server). */
function aliceMail(messageId: string, body: string) {
  const text = [
    `Authentication-Results: ${PASS}`,
    "From: Alice <alice@example.com>",
    "To: help@baton.test",
    "Subject: Account",
    `Message-ID: ${messageId}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
  ].join("\r\n");
  const bytes = new TextEncoder().encode(text);
  return {
    from: "alice@example.com",
    to: "help@baton.test",
    rawSize: bytes.byteLength,
    raw: new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }),
    setReject: (reason: string) => {
      throw new Error(`rejected: ${reason}`);
    },
    forward: async () => undefined,
  };
}

/** Everything Baton starts itself (mail, a schedule, MCP with a service token) in one Worker with end users. */
async function setup() {
  const issuer = await testIssuer();
  const ids = freshIds("rsv");
  const gate = new GateAgent({ name: "root" });
  gate.open();
  const app = defineApp({
    name: ids.app,
    rootAgent: gate,
    email: { address: "help@baton.test", toTurn: (email) => ({ newMessage: email.text.trim() }) },
    schedules: [{ cron: "0 9 * * *", sessionId: "digest", userId: "schedules", message: "daily digest" }],
  });
  const helper = new LlmAgent({ name: "helper", description: "Helps.", model: "demo:helper" });
  const mcpApp = defineApp({ name: `${ids.app}-mcp`, rootAgent: helper });
  const worker = hookWorker(
    {
      apps: [app, mcpApp],
      mcp: mcpServer(),
      services: { sleep: noSleep, log: () => undefined, fetch: issuer.fetch },
    },
    { ...issuer.vars, ALLOWED_HOSTS: "baton.test" },
  );
  const as = async (sub: string) => {
    const token = await issuer.token({ sub });
    return (path: string, init: RequestInit = {}) => worker.call(path, { ...init, token });
  };
  return { ...ids, worker, mcpApp: mcpApp.name, as };
}

/** One tool call to `/mcp/<app>` with the service token, through the official SDK's client. */
async function mcpTurn(worker: Awaited<ReturnType<typeof setup>>["worker"], app: string, message: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://baton.test/mcp/${app}`), {
    fetch: (url, init) => {
      const { pathname } = new URL(String(url));
      // SAFETY: the SDK sends string bodies (JSON) or none.
      const body = init?.body as string | undefined;
      return worker.call(pathname, {
        method: init?.method ?? "GET",
        headers: Object.fromEntries(new Headers(init?.headers).entries()),
        ...(body ? { body } : {}),
      });
    },
  });
  const client = new Client(
    { name: "reserved-users", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(transport);
  try {
    const result = CallToolResultSchema.parse(await client.callTool({ name: app, arguments: { message } }));
    return String(result.structuredContent?.sessionId);
  } finally {
    await client.close();
  }
}

const ids = (sessions: readonly { id: string }[]) => sessions.map((s) => s.id);

describe("the users Baton acts as", () => {
  it("keeps a mail thread out of reach of an end user whose token's sub is the route's user", async () => {
    const t = await setup();
    await t.worker.email(aliceMail("<m1@example.com>", "my account number is 12345"));
    expect(await t.worker.consume()).toMatchObject({ acked: 1 });
    const asEmail = await t.as("email");
    expect(await expectJson(asEmail(`/apps/${t.app}/users/email/sessions`), 200)).toEqual([]);
    const stored = await expectJson<{ id: string }[]>(
      t.worker.call(`/apps/${t.app}/users/baton:email:email/sessions`),
      200,
    );
    expect(stored).toHaveLength(1);
    const thread = stored[0]?.id ?? "";
    await expectJson(asEmail(`/apps/${t.app}/users/email/sessions/${thread}`), 404);
    await expectJson(asEmail(`/apps/${t.app}/users/baton:email:email/sessions`), 403);
    await expectJson(asEmail(`/apps/${t.app}/users/baton:email:email/sessions/${thread}`), 403);
    const run = { appName: t.app, userId: "baton:email:email", sessionId: thread };
    await expectJson(
      asEmail("/run", {
        method: "POST",
        body: JSON.stringify({ ...run, newMessage: { role: "user", parts: [{ text: "read it back" }] } }),
        headers: { "content-type": "application/json" },
      }),
      403,
    );
    await expectJson(
      asEmail(`/apps/${t.app}/users/baton:email:email/sessions/${thread}`, { method: "DELETE" }),
      403,
    );
    expect(
      ids(await expectJson(t.worker.call(`/apps/${t.app}/users/baton:email:email/sessions`), 200)),
    ).toEqual([thread]);
  });

  it("keeps a schedule's session out of reach of an end user whose sub is the schedule's user", async () => {
    const t = await setup();
    await t.worker.scheduled("0 9 * * *", Date.UTC(2026, 11, 2, 9));
    expect(await t.worker.consume()).toMatchObject({ acked: 1 });
    const asSchedules = await t.as("schedules");
    expect(await expectJson(asSchedules(`/apps/${t.app}/users/schedules/sessions`), 200)).toEqual([]);
    await expectJson(asSchedules(`/apps/${t.app}/users/schedules/sessions/digest`), 404);
    await expectJson(t.worker.call(`/apps/${t.app}/users/baton:schedule:schedules/sessions/digest`), 200);
    await expectJson(asSchedules(`/apps/${t.app}/users/baton:schedule:schedules/sessions/digest`), 403);
  });

  it("keeps a service token's MCP session out of reach of an end user whose sub is the MCP user", async () => {
    const t = await setup();
    const sessionId = await mcpTurn(t.worker, t.mcpApp, "hello there");
    const asMcp = await t.as("mcp");
    await expectJson(asMcp(`/apps/${t.mcpApp}/users/mcp/sessions/${sessionId}`), 404);
    const stored = await expectJson<{ userId: string }>(
      t.worker.call(`/apps/${t.mcpApp}/users/baton:mcp:mcp/sessions/${sessionId}`),
      200,
    );
    expect(stored.userId).toBe("baton:mcp:mcp");

    expect(await expectJson(asMcp(`/apps/${t.mcpApp}/users/mcp/sessions`), 200)).toEqual([]);
    await expectJson(asMcp(`/apps/${t.mcpApp}/users/baton:mcp:mcp/sessions/${sessionId}`), 403);
  });
});
