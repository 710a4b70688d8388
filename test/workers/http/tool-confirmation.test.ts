import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";

describe("tool confirmation over HTTP, sessions in Durable Objects", () => {
  it("pauses on adk_request_confirmation, and the user's answer in newMessage runs the stored original call", async () => {
    const paid: number[] = [];
    const pay = functionTool({
      name: "pay",
      description: "Pays an amount",
      parameters: z.object({ amount: z.number() }),
      execute: ({ amount }) => {
        paid.push(amount);
        return { status: "paid" };
      },
      requireConfirmation: true,
    });
    const model = scriptedModel([
      { calls: [{ name: "pay", args: { amount: 9 }, id: "c9" }] },
      { text: "Paid 9." },
    ]);
    const ids = freshIds("confirm");
    const call = callWorker({
      apps: [defineApp({ name: ids.app, rootAgent: new LlmAgent({ name: "cashier", model, tools: [pay] }) })],
      services: { sleep: noSleep },
    });
    const sessions = sessionsOf(call, ids.app, ids.user);
    await sessions.create({ sessionId: ids.session });
    const paused = await expectJson<Event[]>(
      call("/run", { method: "POST", json: runBody(ids.app, ids.user, ids.session, "pay 9") }),
      200,
    );
    const request = paused[1]?.content?.parts?.[0]?.functionCall;
    expect(request?.name).toBe("adk_request_confirmation");
    expect(paused[1]?.longRunningToolIds).toEqual([request?.id]);
    expect(paid).toEqual([]);

    const resumed = await expectJson<Event[]>(
      call("/run", {
        method: "POST",
        json: {
          app_name: ids.app,
          user_id: ids.user,
          session_id: ids.session,
          new_message: {
            role: "user",
            parts: [
              {
                function_response: {
                  id: request?.id,
                  name: "adk_request_confirmation",
                  response: { response: JSON.stringify({ confirmed: true }) },
                },
              },
            ],
          },
        },
      }),
      200,
    );
    expect(paid).toEqual([9]);
    expect(
      resumed.map((e) => e.content?.parts?.[0]?.functionResponse?.response ?? e.content?.parts?.[0]?.text),
    ).toEqual([{ status: "paid" }, "Paid 9."]);
    const stored = await sessions.eventsOf(ids.session);
    expect(stored.map((e) => e.author)).toEqual([
      "user",
      "cashier",
      "cashier",
      "cashier",
      "user",
      "cashier",
      "cashier",
    ]);
    expect(stored[3]?.actions.requestedToolConfirmations).toMatchObject({ c9: { confirmed: false } });
  });
});
