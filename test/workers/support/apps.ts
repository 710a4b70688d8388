import { LlmAgent } from "../../../src/agents/llm-agent.js";
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
