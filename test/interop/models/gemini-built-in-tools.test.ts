import type { IncomingMessage, ServerResponse } from "node:http";
import { beforeEach, describe, expect, it } from "vitest";
import {
  BuiltInCodeExecutor,
  googleMapsGrounding,
  googleSearch,
  urlContext,
} from "../../../src/agents/gemini-tools.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { RequestTool } from "../../../src/agents/request-tool.js";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
import { google } from "../../../src/models/google-provider.js";
import { defineApp } from "../../../src/runner/app.js";
import { Runner } from "../../../src/runner/runner.js";
import { aiSdkModelPort } from "../../../src/services/model-registry.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { collect, testServices, text } from "../../unit/support/run-helpers.js";
import { localServer } from "../support/local-server.js";

/** A Gemini API stand-in on 127.0.0.1: it records each request and answers with a grounded reply. */
const received: Array<{ url: string; body: Record<string, unknown> }> = [];

/** Fields @ai-sdk/google's schema of the metadata knows (it drops others, such as a chunk's `domain`). */
const GROUNDING = {
  groundingChunks: [{ web: { uri: "https://example.test/kettle", title: "example.test" } }],
  groundingSupports: [
    { segment: { startIndex: 0, endIndex: 24, text: "Kettles boil at 100 °C." }, groundingChunkIndices: [0] },
  ],
  webSearchQueries: ["kettle boiling point"],
  searchEntryPoint: { renderedContent: '<div class="container">kettle boiling point</div>' },
};

const candidate = {
  content: { role: "model", parts: [{ text: "Kettles boil at 100 °C." }] },
  finishReason: "STOP",
  groundingMetadata: GROUNDING,
};
const usageMetadata = { promptTokenCount: 9, candidatesTokenCount: 7, totalTokenCount: 16 };

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = "";
  for await (const piece of req) raw += String(piece);
  received.push({ url: req.url ?? "", body: JSON.parse(raw) });
  const answer = { candidates: [candidate], usageMetadata, modelVersion: "gemini-2.5-flash" };
  if ((req.url ?? "").includes(":streamGenerateContent")) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`data: ${JSON.stringify(answer)}\n\n`);
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(answer));
}

const local = localServer(handle);
const baseUrl = () => `${local.origin()}/v1beta`;

beforeEach(() => {
  received.length = 0;
});

let sessions = 0;

/** One turn of `agent` against the fake, through the google provider as a deployment registers it. */
async function turn(agent: LlmAgent, streaming: boolean) {
  const services = {
    ...testServices(),
    env: { GOOGLE_GENERATIVE_AI_API_KEY: "test-key", GOOGLE_GENERATIVE_AI_BASE_URL: baseUrl() },
    models: aiSdkModelPort([google()]),
  };
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const runner = new Runner({
    app: defineApp({ name: "grounded", rootAgent: agent }),
    sessionStore: store,
    services,
  });
  sessions += 1;
  const key = { appName: "grounded", userId: "u", sessionId: `gemini-tools-${sessions}` };
  await store.createSession(key);
  const events = await collect(runner, {
    userId: key.userId,
    sessionId: key.sessionId,
    newMessage: text("How hot does a kettle get?"),
    streaming,
  });
  const session = await store.getSession(key);
  return { events, stored: session?.events ?? [] };
}

const searcher = (tools: RequestTool[]) =>
  new LlmAgent({
    name: "searcher",
    model: "google:gemini-2.5-flash",
    instruction: "Answer with sources.",
    tools,
  });

describe("Gemini's built-in tools reach Gemini's API as it expects them", () => {
  it.each([false, true])(
    "sends googleSearch in the request's tools and keeps the grounding metadata on the stored event (streaming %s)",
    async (streaming) => {
      const { stored } = await turn(searcher([googleSearch]), streaming);
      expect(received).toHaveLength(1);
      expect(received[0]?.body.tools).toEqual([{ googleSearch: {} }]);
      const answer = stored.at(-1);
      expect(answer?.author).toBe("searcher");
      expect(answer?.content?.parts?.[0]?.text).toBe("Kettles boil at 100 °C.");
      expect(answer?.groundingMetadata).toEqual(GROUNDING);
    },
  );

  it("sends urlContext, googleMaps and codeExecution in the order ADK appends them (the code executor first)", async () => {
    const agent = new LlmAgent({
      name: "searcher",
      model: "google:gemini-2.5-flash",
      tools: [urlContext, googleMapsGrounding],
      codeExecutor: new BuiltInCodeExecutor(),
    });
    await turn(agent, false);
    expect(received[0]?.body.tools).toEqual([{ codeExecution: {} }, { urlContext: {} }, { googleMaps: {} }]);
  });

  it("sends the built-in tools a YAML tree names by ADK's names", async () => {
    const root = loadAgentConfig({
      files: {
        "root_agent.yaml":
          "name: searcher\nmodel: gemini-2.5-flash\ninstruction: Answer with sources.\n" +
          "tools:\n  - name: google_search\n  - name: url_context\n  - name: google_maps_grounding\n" +
          "code_executor:\n  name: BuiltInCodeExecutor\n",
      },
    });
    if (!(root instanceof LlmAgent)) throw new Error("expected an LlmAgent");
    await turn(root, false);
    expect(received[0]?.body.tools).toEqual([
      { codeExecution: {} },
      { googleSearch: {} },
      { urlContext: {} },
      { googleMaps: {} },
    ]);
  });
});
