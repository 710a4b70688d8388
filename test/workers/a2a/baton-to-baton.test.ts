import { env } from "cloudflare:workers";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { BatonError } from "../../../src/core/errors.js";
import { defineApp } from "../../../src/runner/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";
import { a2aWorker, asTask, textOf, userMessage, v1Client } from "../support/a2a.js";
import { scriptedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";

const services = { sleep: noSleep };
const storedEvents = async (app: string, userId: string, sessionId: string) =>
  (await new DurableObjectSessionStore(env).getSession({ appName: app, userId, sessionId }))?.events ?? [];

/**
 * Baton to Baton through the Worker's own URL. RemoteA2aAgent (the client helper's work) is not on main
 * yet, so the calling app reaches the other app with the real @a2a-js/sdk client from a tool, and a failed
 * remote task becomes the calling agent's `A2A_TASK_FAILED` error, carrying the server's message.
 */
function frontDesk(name: string, target: string, fetchImpl: () => typeof fetch) {
  const ask = functionTool({
    name: "ask_specialist",
    description: "Asks the specialist app over A2A",
    parameters: z.object({ question: z.string() }),
    execute: async ({ question }) => {
      const client = await v1Client(fetchImpl(), target);
      const task = asTask(await client.sendMessage({ message: userMessage(question) } as never));
      if (task.status?.state === TaskState.TASK_STATE_FAILED)
        throw new BatonError("A2A_TASK_FAILED", textOf(task.status.message?.parts));
      return { answer: textOf(task.artifacts.at(-1)?.parts), remoteTaskId: task.id };
    },
  });
  const model = scriptedModel([
    { calls: [{ name: "ask_specialist", args: { question: "status of order 7?" } }] },
    { text: "relayed" },
  ]);
  // A failed remote task ends the turn with its own code rather than as a generic TOOL_ERROR.
  const rethrowRemoteFailure = (_tool: unknown, _args: unknown, _ctx: unknown, error: unknown) => {
    const cause = error instanceof Error ? error.cause : undefined;
    if (cause instanceof BatonError && cause.code === "A2A_TASK_FAILED") throw cause;
    return undefined;
  };
  const root = new LlmAgent({
    name: "front",
    model,
    tools: [ask],
    retry: { attempts: 1 },
    onToolError: rethrowRemoteFailure,
  });
  return defineApp({ name, rootAgent: root });
}

describe("Baton to Baton over A2A within one Worker", () => {
  it("relays the other app's answer, and its failure arrives as A2A_TASK_FAILED with the server's message", async () => {
    const id = crypto.randomUUID().slice(0, 8);
    const specialist = scriptedApp(`spec-${id}`, [{ text: "order 7 shipped" }]);
    const broken = scriptedApp(`broken-${id}`, [{ fail: 400, message: "orders database unreachable" }]);
    let worker: ReturnType<typeof a2aWorker> | undefined;
    const fetchImpl = () => {
      if (!worker) throw new Error("the worker is not built yet");
      return worker.fetchImpl;
    };
    const good = frontDesk(`front-${id}`, specialist.name, fetchImpl);
    const bad = frontDesk(`front-bad-${id}`, broken.name, fetchImpl);
    worker = a2aWorker({ apps: [specialist, broken, good, bad], services });

    const ok = asTask(
      await (await v1Client(worker.fetchImpl, good.name)).sendMessage({
        message: userMessage("hi"),
      } as never),
    );
    expect(ok.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const goodEvents = await storedEvents(good.name, `A2A_USER_${ok.contextId}`, ok.contextId);
    const relayed = goodEvents
      .flatMap((e) => e.content?.parts ?? [])
      .find((p) => p.functionResponse)?.functionResponse;
    expect(relayed?.response).toMatchObject({ answer: "order 7 shipped" });

    const failed = asTask(
      await (await v1Client(worker.fetchImpl, bad.name)).sendMessage({ message: userMessage("hi") } as never),
    );
    const badEvents = await storedEvents(bad.name, `A2A_USER_${failed.contextId}`, failed.contextId);
    const clientError = badEvents.at(-1);
    expect(clientError?.errorCode).toBe("A2A_TASK_FAILED");
    expect(clientError?.errorMessage).toContain("orders database unreachable");
    // The calling app's own task fails in turn, with the same message.
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(failed.status?.message?.parts)).toBe(clientError?.errorMessage);
  });
});
