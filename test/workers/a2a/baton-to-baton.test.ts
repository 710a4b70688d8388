import { env } from "cloudflare:workers";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { RemoteA2aAgent } from "../../../src/a2a/client/remote-a2a-agent.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { defineApp } from "../../../src/runner/app.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";
import { a2aWorker, asTask, BASE_URL, textOf, userMessage, v1Client } from "../support/a2a.js";
import { scriptedApp } from "../support/a2a-apps.js";
import { noSleep } from "../support/http.js";

// Agent failures are expected here and checked in the stored events, so the log port is quiet.
const services = { sleep: noSleep, log: () => undefined };
const storedEvents = async (app: string, userId: string, sessionId: string) =>
  (await new DurableObjectSessionStore(env).getSession({ appName: app, userId, sessionId }))?.events ?? [];

/**
 * Baton to Baton through the Worker's own URL: the calling app's root transfers to a `RemoteA2aAgent`
 * whose agent card is the other app's card on this Worker, so its answer (or its failure, marked
 * `A2A_TASK_FAILED` with the server's message) is stored in the calling app's session.
 */
function frontDesk(name: string, target: string, fetchImpl: () => typeof fetch) {
  const specialist = new RemoteA2aAgent({
    name: "specialist",
    description: "Answers order questions",
    agentCard: `${BASE_URL}/a2a/${target}/.well-known/agent-card.json`,
    fetch: (input, init) => fetchImpl()(input, init),
  });
  const model = scriptedModel([
    { calls: [{ name: "transfer_to_agent", args: { agent_name: "specialist" } }] },
  ]);
  const root = new LlmAgent({ name: "front", model, retry: { attempts: 1 }, subAgents: [specialist] });
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
    const answer = goodEvents.at(-1);
    expect(answer?.author).toBe("specialist");
    expect(answer?.errorCode).toBeUndefined();
    expect(answer?.content?.parts?.map((p) => p.text).join("")).toBe("order 7 shipped");

    const failed = asTask(
      await (await v1Client(worker.fetchImpl, bad.name)).sendMessage({ message: userMessage("hi") } as never),
    );
    const badEvents = await storedEvents(bad.name, `A2A_USER_${failed.contextId}`, failed.contextId);
    const clientError = badEvents.at(-1);
    expect(clientError?.author).toBe("specialist");
    expect(clientError?.errorCode).toBe("A2A_TASK_FAILED");
    expect(clientError?.errorMessage).toContain("orders database unreachable");
    // The calling app's own task fails in turn, with the same message.
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(failed.status?.message?.parts)).toBe(clientError?.errorMessage);
  });
});
