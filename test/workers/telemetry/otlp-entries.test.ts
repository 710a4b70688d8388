import { TaskState } from "@a2a-js/sdk";
import { describe, expect, inject, it } from "vitest";
import { userText } from "../../../src/core/content.js";
import { demoApp } from "../../../src/demo/app.js";
import { otlpTraces } from "../../../src/otel.js";
import { defineApp } from "../../../src/runner/app.js";
import { verifiers } from "../../../src/webhooks/verifiers.js";
import { webhook } from "../../../src/webhooks/webhook.js";
import { otlpSpans } from "../../support/otlp-collector.js";
import { a2aWorker, asTask, userMessage, v1Client } from "../support/a2a.js";
import { GateAgent } from "../support/gate-agent.js";
import { freshIds, noSleep } from "../support/http.js";
import { hookWorker, sign } from "../support/webhooks.js";

const OTEL = { OTEL_EXPORTER_OTLP_ENDPOINT: inject("otlpCollectorUrl") };
const services = { sleep: noSleep };
const traces = otlpTraces();

/** The names of the spans the collector received for one session, read back over HTTP. */
async function exportedFor(sessionId: string): Promise<string[]> {
  const bodies: unknown[] = await (await fetch(inject("otlpCollectorUrl"))).json();
  return bodies
    .flatMap((body) => otlpSpans(body))
    .filter((span) =>
      span.attributes.some(
        (a) => a.key === "gcp.vertex.agent.session_id" && a.value.stringValue === sessionId,
      ),
    )
    .map((span) => span.name);
}

describe("OTLP export from every entry that runs a turn, in workerd", () => {
  it("exports an A2A server turn's spans after the response", async () => {
    const { fetchImpl, settle } = a2aWorker({ apps: [demoApp], services, traces }, OTEL);
    const client = await v1Client(fetchImpl, "demo");
    const message = userMessage("I need a refund for my last invoice");
    // SAFETY: the SDK's request type wants every optional field of its generated message type.
    const task = asTask(await client.sendMessage({ message } as never));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await settle();
    expect(await exportedFor(task.contextId)).toEqual(
      expect.arrayContaining(["invocation", "invoke_agent concierge", "invoke_agent billing", "call_llm"]),
    );
  });

  it("exports a webhook turn's spans from the queue consumer", async () => {
    const KEY = `whsec_${btoa("otlp-entries-test-key")}`;
    const ids = freshIds("otlp");
    const gate = new GateAgent({ name: "root" });
    gate.open();
    const app = defineApp({
      name: ids.app,
      rootAgent: gate,
      webhooks: [
        webhook<{ session: string }>({
          name: "events",
          verify: verifiers.standardWebhooks({ secretName: "EVENTS_KEY" }),
          toTurn: ({ payload }) => ({
            userId: "hooks",
            sessionId: payload.session,
            newMessage: userText("hi"),
          }),
        }),
      ],
    });
    const hooks = hookWorker({ apps: [app], services, traces }, { EVENTS_KEY: KEY, ...OTEL });
    const session = `s-${crypto.randomUUID()}`;
    const body = JSON.stringify({ session });
    const now = Math.floor(Date.now() / 1000);
    const accepted = await hooks.post(
      `/webhooks/${ids.app}/events`,
      body,
      sign.standardWebhooks(KEY, body, "msg_1", now),
    );
    expect(accepted.status).toBe(202);
    expect(await hooks.consume()).toMatchObject({ acked: 1 });
    expect(await exportedFor(session)).toEqual(expect.arrayContaining(["invocation", "invoke_agent root"]));
  });

  it("exports nothing from a Worker that did not opt in, whatever the env says", async () => {
    const { fetchImpl, settle } = a2aWorker({ apps: [demoApp], services }, OTEL);
    const client = await v1Client(fetchImpl, "demo");
    const message = userMessage("I need a refund for my last invoice");
    // SAFETY: the SDK's request type wants every optional field of its generated message type.
    const task = asTask(await client.sendMessage({ message } as never));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await settle();
    expect(await exportedFor(task.contextId)).toEqual([]);
  });
});
