import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { BaseAgent } from "../../../src/agents/base-agent.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { loadArtifactsInstruction, loadArtifactsTool } from "../../../src/agents/load-artifacts-tool.js";
import { InMemoryArtifactService } from "../../../src/artifacts/blob-artifact-service.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { collect, testServices, text } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

/** A runner with an in-memory artifact service (or none), session `s` of user `u` created. */
async function setup(
  rootAgent: BaseAgent,
  artifacts: InMemoryArtifactService | null = new InMemoryArtifactService(),
) {
  const services = { ...testServices(), ...(artifacts ? { artifacts } : {}) };
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const runner = new Runner({ app: defineApp({ name: "art", rootAgent }), sessionStore: store, services });
  const key = { appName: "art", userId: "u", sessionId: "s" };
  await store.createSession(key);
  const turn = (message: string) =>
    collect(runner, { userId: "u", sessionId: "s", newMessage: text(message) });
  return { turn, store, key, artifacts };
}

const writeNote = functionTool({
  name: "write_note",
  description: "Writes a note file",
  parameters: z.object({ body: z.string() }),
  execute: async ({ body }, ctx) => {
    const version = await ctx.saveArtifact("note.txt", { text: body }, { words: body.split(" ").length });
    return { version, names: await ctx.listArtifacts(), back: await ctx.loadArtifact("note.txt", 0) };
  },
  stateScopes: [],
});

describe("artifacts in a turn, as ADK's tool and callback contexts have them", () => {
  it("records a tool's save in the function response's artifactDelta, version by version", async () => {
    const model = scriptedModel((i) =>
      i % 2 === 0 ? { calls: [{ name: "write_note", args: { body: `draft ${i}` } }] } : { text: "saved" },
    );
    const { turn, artifacts, key } = await setup(new LlmAgent({ name: "root", model, tools: [writeNote] }));
    const first = await turn("write it");
    const response = first.find((e) => e.content?.parts?.[0]?.functionResponse);
    expect(response?.actions.artifactDelta).toEqual({ "note.txt": 0 });
    expect(response?.content?.parts?.[0]?.functionResponse?.response).toEqual({
      version: 0,
      names: ["note.txt"],
      back: { text: "draft 0" },
    });
    // Only the event of the save carries it.
    expect(first.filter((e) => Object.keys(e.actions.artifactDelta).length > 0)).toHaveLength(1);
    const second = await turn("again");
    expect(second.find((e) => e.content?.parts?.[0]?.functionResponse)?.actions.artifactDelta).toEqual({
      "note.txt": 1,
    });
    expect(await artifacts?.loadArtifact({ ...key, filename: "note.txt" })).toEqual({ text: "draft 2" });
    expect((await artifacts?.getArtifactVersion({ ...key, filename: "note.txt" }))?.customMetadata).toEqual({
      words: 2,
    });
  });

  it("gives a callback's save an event of its own, with no content and the artifactDelta", async () => {
    const agent = new LlmAgent({
      name: "root",
      model: scriptedModel([{ text: "done" }]),
      beforeAgent: async (ctx) => {
        await ctx.saveArtifact("user:seen.txt", { text: "yes" });
        return undefined;
      },
    });
    const { turn } = await setup(agent);
    const [callbackEvent, answer] = await turn("hi");
    expect(callbackEvent?.content).toBeUndefined();
    expect(callbackEvent?.actions.artifactDelta).toEqual({ "user:seen.txt": 0 });
    expect(answer?.content?.parts?.[0]?.text).toBe("done");
  });

  it("fails the tool call with ADK's message when the runner has no artifact service", async () => {
    const model = scriptedModel([
      { calls: [{ name: "write_note", args: { body: "x" } }] },
      { text: "after" },
    ]);
    const { turn } = await setup(new LlmAgent({ name: "root", model, tools: [writeNote] }), null);
    const events = await turn("write it");
    const failed = events.find((e) => e.errorCode);
    expect(failed?.errorCode).toBe("TOOL_ERROR");
    expect(failed?.errorMessage).toMatch(/Artifact service is not initialized/);
  });
});

/** ADK's identity instruction for an agent named root with no description. */
const IDENTITY = 'You are an agent. Your internal name is "root".';

describe("load_artifacts", () => {
  it("lists the artifacts in the instruction and puts the asked ones in the next request only", async () => {
    const model = scriptedModel([
      { calls: [{ name: "load_artifacts", args: { artifact_names: ["notes.md", "card.svg", "gone.txt"] } }] },
      { text: "read them" },
    ]);
    const agent = new LlmAgent({ name: "root", model, instruction: "Be brief.", tools: [loadArtifactsTool] });
    const { turn, artifacts, key } = await setup(agent);
    const md = { inlineData: { mimeType: "text/markdown", data: btoa("# Notes\nfirst") } };
    await artifacts?.saveArtifact({ ...key, filename: "notes.md", artifact: md });
    await artifacts?.saveArtifact({ ...key, filename: "user:card.svg", artifact: { text: "<svg/>" } });
    const png = { inlineData: { mimeType: "image/png", data: btoa("png-bytes") } };
    await artifacts?.saveArtifact({ ...key, filename: "photo.png", artifact: png });
    const events = await turn("what do my notes say?");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("read them");

    const [firstCall, secondCall] = model.calls;
    const system = (call: typeof firstCall) => call?.prompt.find((m) => m.role === "system")?.content;
    const listed = loadArtifactsInstruction(["notes.md", "photo.png", "user:card.svg"]);
    expect(system(firstCall)).toBe(`Be brief.\n\n${IDENTITY}\n\n${listed}`);
    expect(JSON.stringify(firstCall?.prompt)).not.toContain("Artifact notes.md is:");
    // The model asked: the next request carries each found artifact after ADK's line, text-like bytes as text.
    const added = secondCall?.prompt.slice(-2).map((m) => (m.role === "user" ? m.content : []));
    expect(added).toEqual([
      [
        { type: "text", text: "Artifact notes.md is:" },
        { type: "text", text: "# Notes\nfirst" },
      ],
      [
        { type: "text", text: "Artifact card.svg is:" },
        { type: "text", text: "<svg/>" },
      ],
    ]);
    // Nothing of it is stored in the session.
    expect(JSON.stringify(events)).not.toContain("# Notes");
    expect(
      events.find((e) => e.content?.parts?.[0]?.functionResponse)?.content?.parts?.[0]?.functionResponse
        ?.response,
    ).toEqual({
      artifact_names: ["notes.md", "card.svg", "gone.txt"],
    });
  });

  it("adds nothing to the request when the session has no artifacts", async () => {
    const model = scriptedModel([{ text: "nothing" }]);
    const { turn } = await setup(
      new LlmAgent({ name: "root", model, instruction: "Be brief.", tools: [loadArtifactsTool] }),
    );
    await turn("hi");
    expect(model.calls[0]?.prompt.find((m) => m.role === "system")?.content).toBe(`Be brief.\n\n${IDENTITY}`);
  });
});
