import { describe, expect, it } from "vitest";
import * as z from "zod";
import { LOAD_MEMORY_INSTRUCTION } from "../../../src/agents/builtin-declarations.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { loadArtifactsTool } from "../../../src/agents/load-artifacts-tool.js";
import { loadMemoryTool, pastConversations, preloadMemoryTool } from "../../../src/agents/memory-tools.js";
import type { ToolUnion } from "../../../src/agents/request-tool.js";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
import { InMemoryMemoryService } from "../../../src/memory/in-memory-memory.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { Runner as BatonRunner } from "../../../src/services/defaults.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { collect, testServices, text } from "../support/run-helpers.js";
import { type Reply, scriptedModel } from "../support/scripted-model.js";

/** An app whose root has `tools`, over one memory service; `addSessionsAutomatically` unless told otherwise. */
function setup(
  tools: ToolUnion[],
  script: (i: number) => Reply,
  options: { auto?: boolean; memory?: boolean } = {},
) {
  const services = testServices();
  const memory = new InMemoryMemoryService();
  const all = options.memory === false ? services : { ...services, memory };
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const model = scriptedModel(script);
  const rootAgent = new LlmAgent({ name: "root", model, tools });
  const app = defineApp({
    name: "mem",
    rootAgent,
    memory: { addSessionsAutomatically: options.auto ?? true },
  });
  const runner = new Runner({ app, sessionStore: store, services: all });
  const turn = async (userId: string, sessionId: string, message: string) => {
    if (!(await store.getSession({ appName: "mem", userId, sessionId })))
      await store.createSession({ appName: "mem", userId, sessionId });
    return collect(runner, { userId, sessionId, newMessage: text(message) });
  };
  return { turn, model, memory, logs: services };
}

const systemOf = (call: { prompt: { role: string; content: unknown }[] } | undefined) =>
  call?.prompt.find((m) => m.role === "system")?.content;

describe("memory across a user's sessions", () => {
  it("finds with load_memory in a later session what the user said in an earlier one, never another user's", async () => {
    // Turns that mention "remember" call load_memory with the user's words; the others just answer.
    const { turn, model } = setup([loadMemoryTool], (i) => {
      const last = model.calls[i]?.prompt.at(-1);
      const said = JSON.stringify(last?.content ?? "");
      if (last?.role === "user" && said.includes("remember"))
        return { calls: [{ name: "load_memory", args: { query: "favourite colour" } }] };
      return { text: "noted" };
    });
    await turn("alice", "monday", "My favourite colour is teal.");
    await turn("bob", "monday", "My favourite colour is red.");

    const later = await turn("alice", "friday", "Do you remember my favourite colour?");
    const found = later.find((e) => e.content?.parts?.[0]?.functionResponse)?.content?.parts?.[0]
      ?.functionResponse;
    expect(found?.name).toBe("load_memory");
    const memories = found?.response.memories as { content: { parts: { text: string }[] }; author: string }[];
    expect(memories.map((m) => [m.author, m.content.parts[0]?.text])).toEqual([
      ["user", "My favourite colour is teal."],
    ]);

    const other = await turn("carol", "friday", "Do you remember my favourite colour?");
    const none = other.find((e) => e.content?.parts?.[0]?.functionResponse)?.content?.parts?.[0]
      ?.functionResponse;
    expect(none?.response).toEqual({ memories: [] });
    // Every request of an agent with load_memory says it has memory (ADK's text).
    expect(systemOf(model.calls[0])).toContain(LOAD_MEMORY_INSTRUCTION.trim());
  });

  it("puts the user's matching past conversations in the instruction with preload_memory", async () => {
    const { turn, model } = setup([preloadMemoryTool], () => ({ text: "ok" }));
    await turn("alice", "s1", "I adopted a cat named Miso.");
    await turn("alice", "s2", "What is the name of my cat?");
    await turn("bob", "s3", "What is the name of my cat?");
    const [, aliceLater, bobLater] = model.calls;
    const past = pastConversations(["Time: 2026-01-01T00:00:00.000Z", "user: I adopted a cat named Miso."]);
    expect(systemOf(aliceLater)).toBe(`You are an agent. Your internal name is "root".\n\n${past}`);
    expect(String(systemOf(bobLater))).not.toContain("PAST_CONVERSATIONS");
  });

  it("remembers nothing unless the app adds sessions (or a client PATCHes them in)", async () => {
    const { turn, memory } = setup([], () => ({ text: "ok" }), { auto: false });
    await turn("alice", "s1", "My favourite colour is teal.");
    expect((await memory.searchMemory({ appName: "mem", userId: "alice", query: "teal" })).memories).toEqual(
      [],
    );
  });

  it("fails a load_memory call with ADK's message when there is no memory service", async () => {
    const { turn } = setup(
      [loadMemoryTool],
      (i) => (i === 0 ? { calls: [{ name: "load_memory", args: { query: "x" } }] } : { text: "after" }),
      { memory: false },
    );
    const events = await turn("alice", "s1", "hello");
    const failed = events.find((e) => e.errorCode);
    expect([failed?.errorCode, failed?.errorMessage]).toEqual([
      "TOOL_ERROR",
      expect.stringMatching(/Memory service is not available/),
    ]);
  });
});

describe("ADK's memory and artifact tools by name", () => {
  it("builds load_memory, preload_memory and load_artifacts from Agent Config YAML", () => {
    const agent = loadAgentConfig({
      files: {
        "root_agent.yaml":
          "name: root\nmodel: tiny\ntools:\n  - name: load_memory\n  - name: preload_memory\n  - name: load_artifacts\n",
      },
      model: (name) => `demo:${name}`,
    });
    expect(agent instanceof LlmAgent && agent.config.tools).toEqual([
      loadMemoryTool,
      preloadMemoryTool,
      loadArtifactsTool,
    ]);
  });

  it("gives the baton entry's Runner in-memory artifacts and memory with no wiring", async () => {
    const model = scriptedModel((i) =>
      i === 0
        ? { calls: [{ name: "keep", args: {} }] }
        : i === 2
          ? { calls: [{ name: "load_memory", args: { query: "teal" } }] }
          : { text: "ok" },
    );
    const keep = functionTool({
      name: "keep",
      description: "Keeps a note",
      parameters: z.object({}),
      execute: async (_args, ctx) => ({ version: await ctx.saveArtifact("note.txt", { text: "teal" }) }),
      stateScopes: [],
    });
    const rootAgent = new LlmAgent({ name: "root", model, tools: [keep, loadMemoryTool] });
    const app = defineApp({ name: "plain", rootAgent, memory: { addSessionsAutomatically: true } });
    const store = new InMemorySessionStore();
    const runner = new BatonRunner({ app, sessionStore: store });
    await store.createSession({ appName: "plain", userId: "u", sessionId: "s1" });
    await store.createSession({ appName: "plain", userId: "u", sessionId: "s2" });
    const first = await collect(runner, {
      userId: "u",
      sessionId: "s1",
      newMessage: text("my colour is teal"),
    });
    expect(first.find((e) => Object.keys(e.actions.artifactDelta).length > 0)?.actions.artifactDelta).toEqual(
      { "note.txt": 0 },
    );
    const later = await collect(runner, { userId: "u", sessionId: "s2", newMessage: text("what colour?") });
    const recalled = later.find((e) => e.content?.parts?.[0]?.functionResponse?.name === "load_memory");
    expect(JSON.stringify(recalled?.content?.parts?.[0]?.functionResponse?.response)).toContain(
      "my colour is teal",
    );
  });
});
