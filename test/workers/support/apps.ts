import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { ParallelAgent } from "../../../src/agents/parallel-agent.js";
import { SequentialAgent } from "../../../src/agents/sequential-agent.js";
import { type App, defineApp } from "../../../src/runner/app.js";

/** One agent on the fake server's `hello-model`. */
export function helloApp(name: string): App {
  return defineApp({
    name,
    rootAgent: new LlmAgent({ name: "root", model: "openai-compatible:hello-model" }),
  });
}

/** The seed scenario's tree: root (`root-model`) with one sub-agent `sub_agent` (`sub-model`). */
export function seedApp(name: string): App {
  const subAgent = new LlmAgent({
    name: "sub_agent",
    description: "Handles whatever root hands over.",
    model: "openai-compatible:sub-model",
  });
  const root = new LlmAgent({
    name: "root",
    description: "Routes the user.",
    model: "openai-compatible:root-model",
    subAgents: [subAgent],
  });
  return defineApp({ name, rootAgent: root });
}

/** A SequentialAgent: `writer` stores its answer under `draft`, `reviewer` reads it in its instruction. */
export function pipelineApp(name: string): App {
  const writer = new LlmAgent({
    name: "writer",
    model: "openai-compatible:writer-model",
    outputKey: "draft",
  });
  const reviewer = new LlmAgent({
    name: "reviewer",
    model: "openai-compatible:reviewer-model",
    instruction: "Review this draft: {draft}",
  });
  return defineApp({
    name,
    rootAgent: new SequentialAgent({ name: "pipeline", subAgents: [writer, reviewer] }),
  });
}

/** A ParallelAgent with two LLM sub-agents, then a summariser that sees both branches. */
export function fanoutApp(name: string): App {
  const fanout = new ParallelAgent({
    name: "fanout",
    subAgents: [
      new LlmAgent({ name: "left", model: "openai-compatible:left-model" }),
      new LlmAgent({ name: "right", model: "openai-compatible:right-model" }),
    ],
  });
  const summary = new LlmAgent({ name: "summary", model: "openai-compatible:summary-model" });
  return defineApp({ name, rootAgent: new SequentialAgent({ name: "flow", subAgents: [fanout, summary] }) });
}
