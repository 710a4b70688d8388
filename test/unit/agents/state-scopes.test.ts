import { describe, expect, it } from "vitest";
import * as z from "zod";
import { AgentTool } from "../../../src/agents/agent-tool.js";
import { BaseAgent } from "../../../src/agents/base-agent.js";
import { exitLoop } from "../../../src/agents/exit-loop-tool.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import type { InvocationContext } from "../../../src/agents/invocation-context.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { LoopAgent } from "../../../src/agents/loop-agent.js";
import { pluginScopes } from "../../../src/agents/plugins.js";
import { SequentialAgent } from "../../../src/agents/sequential-agent.js";
import { treeScopes } from "../../../src/agents/state-scopes.js";
import type { Event } from "../../../src/core/event.js";
import { adkReplayPlugin } from "../../../src/replay/replay-plugin.js";
import { defineApp } from "../../../src/runner/app.js";

const tool = (stateScopes?: ("app" | "user")[]) =>
  functionTool({
    name: "t",
    description: "A tool",
    parameters: z.object({}),
    execute: () => null,
    ...(stateScopes ? { stateScopes } : {}),
  });

const llm = (name: string, extra: Partial<ConstructorParameters<typeof LlmAgent>[0]> = {}) =>
  new LlmAgent({ name, model: "demo:x", ...extra });

/** An agent kind Baton cannot see into. */
class Custom extends BaseAgent {
  readonly transferPolicy = undefined;
  protected async *runImpl(_ctx: InvocationContext): AsyncGenerator<Event> {
    // runs nothing: only its shape matters here
  }
}

describe("treeScopes: the shared state scopes an app's turn must read", () => {
  it("is empty for plain agents, session and temp: keys, and the built-in tools", () => {
    const root = llm("root", {
      instruction: "Answer about {topic} {temp:x?}",
      outputKey: "answer",
      tools: [exitLoop],
      subAgents: [llm("a"), new SequentialAgent({ name: "pipeline", subAgents: [llm("b")] })],
    });
    expect(treeScopes(root)).toEqual([]);
    expect(defineApp({ name: "plain", rootAgent: root }).stateScopes).toEqual([]);
  });

  it("finds {app:…} and {user:…?} placeholders in any agent's instruction", () => {
    expect(treeScopes(llm("root", { subAgents: [llm("a", { instruction: "Motto {app:motto}" })] }))).toEqual([
      "app",
    ]);
    expect(treeScopes(llm("root", { instruction: "Hi {user:name?}" }))).toEqual(["user"]);
  });

  it("counts an output key by its prefix", () => {
    expect(treeScopes(llm("root", { outputKey: "app:last" }))).toEqual(["app"]);
    expect(treeScopes(llm("root", { outputKey: "user:last" }))).toEqual(["user"]);
  });

  it("counts both for a tool, callback or instruction function that declares nothing", () => {
    expect(treeScopes(llm("root", { tools: [tool()] }))).toEqual(["app", "user"]);
    expect(treeScopes(llm("root", { beforeModel: () => undefined }))).toEqual(["app", "user"]);
    expect(treeScopes(llm("root", { instruction: () => "hi" }))).toEqual(["app", "user"]);
    const loop = new LoopAgent({ name: "loop", subAgents: [llm("a")], afterAgent: () => undefined });
    expect(treeScopes(loop)).toEqual(["app", "user"]);
  });

  it("takes what a tool or an agent declares", () => {
    expect(treeScopes(llm("root", { tools: [tool([])] }))).toEqual([]);
    expect(treeScopes(llm("root", { tools: [tool(["user"])] }))).toEqual(["user"]);
    expect(treeScopes(llm("root", { beforeModel: () => undefined, stateScopes: [] }))).toEqual([]);
    // A declaration covers the agent's own code, never its template or tools.
    expect(treeScopes(llm("root", { stateScopes: [], instruction: "{app:x}", tools: [tool()] }))).toEqual([
      "app",
      "user",
    ]);
  });

  it("looks into an AgentTool's agent", () => {
    const inner = llm("inner", { instruction: "{app:rules}" });
    expect(treeScopes(llm("root", { tools: [new AgentTool({ agent: inner })] }))).toEqual(["app"]);
    expect(treeScopes(llm("root", { tools: [new AgentTool({ agent: llm("quiet") })] }))).toEqual([]);
  });

  it("counts both for an agent kind it cannot see into, or a built-in kind whose body is overridden", () => {
    expect(treeScopes(llm("root", { subAgents: [new Custom({ name: "custom" })] }))).toEqual(["app", "user"]);
    expect(treeScopes(new Custom({ name: "custom", stateScopes: ["user"] }))).toEqual(["user"]);
    class Tweaked extends LlmAgent {
      protected override async *runImpl(_ctx: InvocationContext): AsyncGenerator<Event> {
        // runs nothing: only its shape matters here
      }
    }
    expect(treeScopes(new Tweaked({ name: "tweaked", model: "demo:x" }))).toEqual(["app", "user"]);
  });
});

describe("pluginScopes", () => {
  it("counts both for a plugin that declares nothing, and what one declares", () => {
    expect(pluginScopes({ name: "audit", beforeModel: () => undefined })).toEqual(["app", "user"]);
    expect(pluginScopes({ name: "quiet", beforeModel: () => undefined, stateScopes: [] })).toEqual([]);
    expect(adkReplayPlugin.stateScopes).toEqual([]);
  });
});
