import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { defineApp } from "../../../src/runner/app.js";
import { type Reply, scriptedModel } from "../../unit/support/scripted-model.js";
import { deferred } from "./a2a.js";

const noRetry = { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 };

/** An app whose one agent answers from a script. */
export function scriptedApp(name: string, script: readonly Reply[]) {
  const root = new LlmAgent({
    name: "worker",
    description: "Answers from a script.",
    model: scriptedModel(script),
    retry: noRetry,
  });
  return defineApp({ name, rootAgent: root });
}

/**
 * An app whose agent calls `wait_gate`, which waits until the test opens the gate, then answers
 * "done after the gate": a turn that can be held half-way (`reached` resolves once it waits).
 */
export function gatedApp(name: string) {
  const reached = deferred();
  const gate = deferred();
  const waitGate = functionTool({
    name: "wait_gate",
    description: "Waits for the gate",
    parameters: z.object({}),
    execute: async () => {
      reached.resolve();
      await gate.promise;
      return { opened: true };
    },
  });
  const model = scriptedModel([
    { calls: [{ name: "wait_gate", args: {}, id: "call-gate" }] },
    { text: "done after the gate" },
  ]);
  const root = new LlmAgent({
    name: "gatekeeper",
    description: "Waits at a gate.",
    model,
    tools: [waitGate],
    retry: noRetry,
  });
  return { app: defineApp({ name, rootAgent: root }), reached: reached.promise, open: () => gate.resolve() };
}

/** An app whose agent asks for approval through a long-running tool, then answers with the decision. */
export function approvalApp(name: string) {
  const askApproval = functionTool({
    name: "ask_approval",
    description: "Asks a human to approve",
    parameters: z.object({ amount: z.number() }),
    execute: () => ({ status: "pending" }),
    isLongRunning: true,
  });
  const model = scriptedModel([
    { calls: [{ name: "ask_approval", args: { amount: 42 }, id: "call-approve" }] },
    { text: "approved, refund issued" },
  ]);
  const root = new LlmAgent({
    name: "refunds",
    description: "Refunds with approval.",
    model,
    tools: [askApproval],
    retry: noRetry,
  });
  return defineApp({ name, rootAgent: root });
}
