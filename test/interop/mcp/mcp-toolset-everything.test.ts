// McpToolset in Node against the registry's `@modelcontextprotocol/server-everything` (a 2025-11-25 server in
// its own process): it is probed with server/discover, answers with an error, and is used over initialize
// and its session; every tool it lists is offered, and rich content comes back as the server sent it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionResponsesOf } from "../../../src/core/content.js";
import { McpToolset } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { type McpProcess, startEverythingServer } from "../../support/mcp-processes.js";
import { collect, testServices, text } from "../../unit/support/run-helpers.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";

let everything: McpProcess;
beforeAll(async () => {
  everything = await startEverythingServer();
}, 60_000);
afterAll(() => everything?.stop());

describe("McpToolset against the registry's everything server", () => {
  it("offers all its tools and answers a call's image content as the server sent it", async () => {
    const services = { ...testServices(), fetch: globalThis.fetch };
    const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
    const model = scriptedModel([
      {
        calls: [
          { name: "get-tiny-image", args: {} },
          { name: "get-sum", args: { a: 2, b: 3 } },
        ],
      },
      { text: "Done." },
    ]);
    const toolset = new McpToolset({ connectionParams: { url: `${everything.origin}/mcp`, timeout: 10 } });
    const rootAgent = new LlmAgent({ name: "tester", model, tools: [toolset] });
    const runner = new Runner({ app: defineApp({ name: "ev", rootAgent }), sessionStore: store, services });
    await store.createSession({ appName: "ev", userId: "u", sessionId: "s" });
    const events = await collect(runner, { userId: "u", sessionId: "s", newMessage: text("image and sum") });
    const offered = (model.calls[0]?.tools ?? []).map((t) => t.name).sort();
    expect(offered).toHaveLength(13);
    expect(offered).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image"]));
    const [image, sum] = events.flatMap((e) => functionResponsesOf(e.content)).map((r) => r.response);
    const blocks = (image?.content ?? []) as { type: string; mimeType?: string; data?: string }[];
    expect(blocks.map((b) => b.type)).toContain("image");
    expect(blocks.find((b) => b.type === "image")).toMatchObject({ mimeType: "image/png" });
    expect(JSON.stringify(sum?.content)).toContain("5");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("Done.");
  }, 60_000);
});
